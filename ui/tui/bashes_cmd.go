package tui

import (
	"fmt"
	"strings"

	"pincer/ui/termtext"
)

// helpTopicBashes is the help screen's topic while /bashes shows it.
const helpTopicBashes = "bashes"

// shellKiller is the part of a Backend that ends a background shell of a
// session (app.Backend has it, through agent.KillShell); a backend without
// it lists shells but cannot end them.
type shellKiller interface {
	KillShell(sessionID, shellID string) error
}

// slashBashes is /bashes, as Claude Code's: alone, the session's background
// shells with their state on the help screen (Esc closes it), then the
// other sessions' still running (bashes_other.go); "ID" that
// shell's output (bashes_output.go); "kill ID"
// ends one (its whole process group), off the event loop — the list and the
// transcript change when its shell.exited arrives. Another session's shell
// is SESSION:ID in all three.
func (w *Workbench) slashBashes(args []string) bool {
	if len(args) == 0 {
		w.helpOpen, w.helpOffset, w.helpTopic = true, 0, helpTopicBashes
		return true
	}
	if len(args) == 1 && args[0] != "kill" {
		return w.openShellOutput(args[0])
	}
	if len(args) != 2 || args[0] != "kill" {
		w.Notify("warning", "usage: /bashes (list), /bashes ID (its output) or /bashes kill ID")
		return false
	}
	id := args[1]
	known := false
	for _, s := range w.model.Shells {
		if s.ID == id && s.Running {
			known = true
		}
	}
	sid, shellID := w.liveID, id
	if o, ok := findOtherShell(w.otherShells(), id); !known && ok {
		// another session's (SESSION:ID): its shell.exited lands in a log
		// this tab does not follow, so the end is said here
		known, sid, shellID = true, o.SessionID, o.ShellID
	}
	if !known {
		w.Notify("warning", "no running background shell "+termtext.Line(id)+" in this session (/bashes lists them)")
		return false
	}
	k, ok := w.be.(shellKiller)
	if !ok || sid == "" {
		w.Notify("warning", "background shells cannot be ended from here")
		return false
	}
	w.goBackground(func() {
		if err := k.KillShell(sid, shellID); err != nil {
			w.Notify("error", "kill "+id+": "+err.Error())
		} else {
			// said on the notices line for this session's shells too (new
			// user r24 #2: nothing answered /bashes kill bash_1)
			w.Notify("info", "background shell "+termtext.Line(id)+" killed")
		}
	})
	return true
}

// bashesHelpLines are /bashes' lines: the shown session's shells, then the
// running ones of the process's other sessions (bashes_other.go).
func (w *Workbench) bashesHelpLines() []string {
	return append(shellLines(w.model.Shells), otherShellLines(w.otherShells(), w.tabOfSession)...)
}

// shellLines renders the shells for /bashes (pure): a heading, then one
// line per shell, running ones first, each "  ID  STATE  COMMAND" with the
// command on one clean line (termtext.Line: no escapes reach the screen).
func shellLines(shells []ShellEntry) []string {
	lines := []string{"Background shells — Bash run_in_background (/bashes ID shows one's output, /bashes kill ID ends it; Esc closes)", ""}
	if len(shells) == 0 {
		return append(lines, "  none in this session")
	}
	var running, ended []string
	for _, s := range shells {
		state := "running"
		if !s.Running {
			state = shellEnd(s.Reason, s.ExitCode)
		}
		line := fmt.Sprintf("  %-8s %-22s %s", termtext.Line(s.ID), state, termtext.Line(strings.TrimSpace(s.Command)))
		if s.Running {
			running = append(running, line)
		} else {
			ended = append(ended, line)
		}
	}
	return append(append(lines, running...), ended...)
}

// shellCount is the status line's field for n running background shells.
func shellCount(n int) string {
	if n == 1 {
		return "1 shell"
	}
	return fmt.Sprintf("%d shells", n)
}

// shellEnder is the part of a Backend that ends a session's background
// shells (app.Backend has it).
type shellEnder interface {
	EndSessionShells(sessionID string)
}

// endTabShells ends the background shells of tab t's session as the tab
// closes (off the event loop: it waits for them to end); their shell.exited
// events land in the session's log after the tab stopped following it.
func (w *Workbench) endTabShells(t *sessionTab) {
	e, ok := w.be.(shellEnder)
	if !ok || t.liveID == "" || t.readOnly || t.model.RunningShells() == 0 {
		return
	}
	id := t.liveID
	w.goBackground(func() { e.EndSessionShells(id) })
}
