//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// openNoFollow makes an open fail on a symbolic link.
const openNoFollow = syscall.O_NOFOLLOW

// killProcessGroup signals the process group of cmd's process (a stdio
// server and every child it started).
func killProcessGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}
