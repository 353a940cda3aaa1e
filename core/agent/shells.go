package agent

import (
	"context"
	"sync"

	"pincer/core/event"
	"pincer/tools"
)

// shellSets holds the background shells of an Agent's sessions (Bash with
// run_in_background), one tools.Shells per session, created on the
// session's first tool call.
type shellSets struct {
	mu     sync.Mutex
	sets   map[string]*tools.Shells
	closed bool
}

// shellSet returns the session's set of background shells, whose starts and
// ends are shell.started and shell.exited events in the session's log.
// After CloseShells it returns a closed set (no shell can start).
func (a *Agent) shellSet(sessionID string) *tools.Shells {
	a.shells.mu.Lock()
	defer a.shells.mu.Unlock()
	if a.shells.sets == nil {
		a.shells.sets = map[string]*tools.Shells{}
	}
	s, ok := a.shells.sets[sessionID]
	if !ok {
		s = tools.NewShellsIn(a.cfg.ShellQuota, tools.ShellEvents{
			Started: func(i tools.ShellInfo) {
				_, _ = a.log.Emit(context.Background(), event.ShellStarted, sessionID, "",
					event.ShellStartedData{ShellID: i.ID, ToolCallID: i.ToolCallID, Command: i.Command})
			},
			Exited: func(i tools.ShellInfo) {
				_, _ = a.log.Emit(context.Background(), event.ShellExited, sessionID, "",
					event.ShellExitedData{ShellID: i.ID, ExitCode: i.ExitCode, Reason: i.Reason})
			},
		})
		a.shells.sets[sessionID] = s
		if a.shells.closed {
			s.Close()
		}
	}
	return s
}

// Shells returns the background shells of the session (running and ended,
// oldest first) that this Agent started; nil when it started none.
func (a *Agent) Shells(sessionID string) []tools.ShellInfo {
	a.shells.mu.Lock()
	s := a.shells.sets[sessionID]
	a.shells.mu.Unlock()
	if s == nil {
		return nil
	}
	return s.List()
}

// KillShell ends background shell shellID of the session (a person's /bashes
// kill, or a front end's): as the KillShell tool, the whole process group
// and PID namespace, reason "killed" in shell.exited. It returns once the
// shell has ended; it fails with tools.ErrNoShell when the session has no
// such shell in this process.
func (a *Agent) KillShell(sessionID, shellID string) error {
	a.shells.mu.Lock()
	s := a.shells.sets[sessionID]
	a.shells.mu.Unlock()
	if s == nil {
		return tools.ErrNoShell
	}
	_, err := s.Kill(shellID)
	return err
}

// CloseShells ends every background shell of every session of this Agent
// (reason "session_ended") and refuses new ones; it returns once they have
// ended. The composition root calls it when the process ends (Run.Close);
// a kill -9 of pincer ends them by the parent-death signal instead.
func (a *Agent) CloseShells() {
	a.shells.mu.Lock()
	a.shells.closed = true
	var sets []*tools.Shells
	for _, s := range a.shells.sets {
		sets = append(sets, s)
	}
	a.shells.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range sets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Close()
		}()
	}
	wg.Wait()
}

// EndSessionShells ends the background shells of one session (reason
// "session_ended"; a workbench tab closed on it) and forgets them: the
// session's next background shell, in a later turn, starts a new set
// (bash_1 again). It returns once they have ended.
func (a *Agent) EndSessionShells(sessionID string) {
	a.shells.mu.Lock()
	s := a.shells.sets[sessionID]
	delete(a.shells.sets, sessionID)
	a.shells.mu.Unlock()
	if s != nil {
		s.Close()
	}
}
