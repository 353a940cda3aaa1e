package tui

import (
	"fmt"

	"pincer/core/event"
	"pincer/ui/termtext"
	"pincer/ui/tui/transcript"
)

// ShellEntry is one background shell of the session (Bash with
// run_in_background) as its shell.* events tell it.
type ShellEntry struct {
	// ID is the shell's bash_id ("bash_1"); Command the command as the
	// model wrote it; ToolCallID the Bash call that started it.
	ID, Command, ToolCallID string
	// Running is true until its shell.exited; then Reason says why
	// (exited, killed, session_ended, tainted) and ExitCode is its status.
	Running  bool
	Reason   string
	ExitCode int
}

// shellStarted adds the shell a shell.started announces.
func (m *Model) shellStarted(d event.ShellStartedData) {
	for i := range m.Shells {
		if m.Shells[i].ID == d.ShellID && m.Shells[i].Running {
			return // the same shell announced twice: keep the first
		}
	}
	m.Shells = append(m.Shells, ShellEntry{ID: d.ShellID, Command: d.Command, ToolCallID: d.ToolCallID, Running: true, ExitCode: -1})
}

// shellExited marks the running shell of a shell.exited ended and says so
// in the transcript (it ends between tool calls, or after the turn).
func (m *Model) shellExited(ev event.Event, d event.ShellExitedData) {
	for i := len(m.Shells) - 1; i >= 0; i-- {
		if s := &m.Shells[i]; s.ID == d.ShellID && s.Running {
			s.Running, s.Reason, s.ExitCode = false, d.Reason, d.ExitCode
			break
		}
	}
	m.upsertBlock(transcript.Block{ID: eventBlockID(ev), Kind: transcript.KindNotice, Done: true,
		Text: "background shell " + termtext.Line(d.ShellID) + " " + shellEnd(d.Reason, d.ExitCode)})
}

// shellEnd says how a shell ended: "exited (code 0)", "killed", "ended with
// the session", "ended by pincer (…)" (tools.ShellTainted).
func shellEnd(reason string, code int) string {
	switch reason {
	case "killed":
		return "killed"
	case "session_ended":
		return "ended with the session"
	case "tainted":
		return "ended by pincer (its workspace was tainted while it read unconfined)"
	}
	return fmt.Sprintf("exited (code %d)", code)
}

// RunningShells is the number of the session's background shells running.
func (m *Model) RunningShells() int {
	n := 0
	for _, s := range m.Shells {
		if s.Running {
			n++
		}
	}
	return n
}
