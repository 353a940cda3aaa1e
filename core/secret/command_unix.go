//go:build unix

package secret

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts cmd in its own process group and makes a cancellation
// kill the whole group, so that a helper's children (a `sleep` in a shell script)
// die with it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
