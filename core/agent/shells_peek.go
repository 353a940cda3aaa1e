package agent

import "pincer/tools"

// PeekShell returns background shell shellID of the session with the output
// its buffer keeps, without consuming it (tools.Shells.Peek: the model's
// BashOutput still sees all of it): the workbench's /bashes ID, as Claude
// Code's /bashes opens a shell's output. tools.ErrNoShell when the session
// has no such shell in this process.
func (a *Agent) PeekShell(sessionID, shellID string) (tools.ShellPeek, error) {
	a.shells.mu.Lock()
	s := a.shells.sets[sessionID]
	a.shells.mu.Unlock()
	if s == nil {
		return tools.ShellPeek{}, tools.ErrNoShell
	}
	return s.Peek(shellID)
}
