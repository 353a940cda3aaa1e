package app

import "strings"

// KillShell ends background shell shellID of the session (the workbench's
// /bashes kill) on the agent that runs the session (agentFor: a worktree
// tab's own): the whole process group and PID namespace, recorded as
// shell.exited with reason "killed". It returns once the shell has ended;
// tools.ErrNoShell when this process has no such shell of the session.
func (b *Backend) KillShell(sessionID, shellID string) error {
	return b.agentFor(sessionID).KillShell(sessionID, shellID)
}

// EndSessionShells ends every background shell of the session (a closed
// workbench tab: nobody views the session any more), reason session_ended,
// and returns once they have ended.
func (b *Backend) EndSessionShells(sessionID string) {
	b.agentFor(sessionID).EndSessionShells(sessionID)
}

// ShellOutput returns the output background shell shellID of the session
// still keeps (the most recent bytes; dropped counts the earlier ones no
// longer kept), without consuming it: the model's next BashOutput sees it
// all the same (agent.PeekShell, on the session's agent). For the
// workbench's /bashes ID: the output is made safe as BashOutput's
// (tools.SafeOutput), its note, if any, on a last line. tools.ErrNoShell when this process has no such
// shell of the session.
func (b *Backend) ShellOutput(sessionID, shellID string) (output string, dropped int64, err error) {
	p, err := b.agentFor(sessionID).PeekShell(sessionID, shellID)
	out := p.Output
	if p.Note != "" {
		out = strings.TrimSuffix(out, "\n") + "\n" + p.Note + "\n"
	}
	return out, p.Dropped, err
}
