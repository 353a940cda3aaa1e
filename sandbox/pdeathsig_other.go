//go:build !linux

package sandbox

import "os/exec"

// hasPdeathsig: parent-death signals exist on Linux only.
func hasPdeathsig(*exec.Cmd) bool { return false }

// setPdeathsig: without parent-death signals a background process is ended
// only by Process.Kill (the session's end), not by a kill -9 of pincer.
func setPdeathsig(*exec.Cmd) {}
