//go:build !unix

package secret

import "os/exec"

// setProcessGroup does nothing where process groups are not available; the
// command alone is killed on timeout.
func setProcessGroup(cmd *exec.Cmd) {}
