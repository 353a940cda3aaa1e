package sandbox

import "os/exec"

// hasPdeathsig reports whether cmd asks for a parent-death signal.
func hasPdeathsig(cmd *exec.Cmd) bool {
	return cmd.SysProcAttr != nil && cmd.SysProcAttr.Pdeathsig != 0
}
