package app

// LiveShell is a background shell still running in this process, of any
// session a Backend's agents run (the workbench's /bashes lists those of
// the sessions it does not show).
type LiveShell struct {
	// SessionID is the session it belongs to; ShellID its bash_id there;
	// Command the command as the model wrote it.
	SessionID, ShellID, Command string
}

// LiveShells returns the background shells still running in every session
// of the Backend's agents (its own and each tab's), by agent, then session,
// then oldest first. It does not wait on any shell: the event loop may call
// it.
func (b *Backend) LiveShells() []LiveShell {
	var out []LiveShell
	for _, ag := range b.allAgents() {
		for _, s := range ag.RunningShells() {
			out = append(out, LiveShell{SessionID: s.SessionID, ShellID: s.ID, Command: s.Command})
		}
	}
	return out
}
