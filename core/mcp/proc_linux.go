package mcp

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts cmd in a process group of its own, with SIGKILL as
// its parent-death signal (PR_SET_PDEATHSIG): a pincer killed with SIGKILL
// takes its stdio servers with it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
