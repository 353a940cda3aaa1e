package app

// KillShell ends background shell shellID of the session (the workbench's
// /bashes kill): the whole process group and PID namespace, recorded as
// shell.exited with reason "killed". It returns once the shell has ended;
// tools.ErrNoShell when this process has no such shell of the session.
func (b *Backend) KillShell(sessionID, shellID string) error {
	return b.Agent.KillShell(sessionID, shellID)
}
