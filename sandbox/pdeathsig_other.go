//go:build !linux

package sandbox

import "os/exec"

// hasPdeathsig: parent-death signals exist on Linux only.
func hasPdeathsig(*exec.Cmd) bool { return false }
