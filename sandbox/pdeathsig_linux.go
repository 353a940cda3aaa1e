package sandbox

import (
	"os/exec"
	"syscall"
)

// hasPdeathsig reports whether cmd asks for a parent-death signal.
func hasPdeathsig(cmd *exec.Cmd) bool {
	return cmd.SysProcAttr != nil && cmd.SysProcAttr.Pdeathsig != 0
}

// setPdeathsig makes the kernel SIGKILL cmd's process when the thread that
// started it ends (with pincer's death at the latest).
func setPdeathsig(cmd *exec.Cmd) { cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL }
