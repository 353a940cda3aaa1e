package agent

import (
	"slices"
	"strings"

	"pincer/tools"
)

// SessionShell is a background shell of one of an Agent's sessions.
type SessionShell struct {
	// SessionID is the session whose tool call started it.
	SessionID string
	tools.ShellInfo
}

// RunningShells returns the background shells still running in any session
// of this Agent, by session ID then oldest first: the shells belong to the
// process, whichever session the workbench shows (a /clear or /resume left
// the session that started them; its shells run on until it quits). It
// takes the sets' locks only (it never waits on a shell).
func (a *Agent) RunningShells() []SessionShell {
	a.shells.mu.Lock()
	ids := make([]string, 0, len(a.shells.sets))
	sets := map[string]*tools.Shells{}
	for id, s := range a.shells.sets {
		ids = append(ids, id)
		sets[id] = s
	}
	a.shells.mu.Unlock()
	slices.SortFunc(ids, strings.Compare)
	var out []SessionShell
	for _, id := range ids {
		for _, i := range sets[id].List() {
			if i.Running {
				out = append(out, SessionShell{SessionID: id, ShellInfo: i})
			}
		}
	}
	return out
}
