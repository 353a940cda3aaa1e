//go:build unix && !linux

package mcp

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts cmd in a process group of its own (parent-death
// signals exist on Linux only).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
