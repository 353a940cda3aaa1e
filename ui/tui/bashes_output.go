package tui

import (
	"fmt"
	"strings"

	"pincer/ui/termtext"
)

// helpTopicBashOutput is the help screen's topic while /bashes ID shows a
// shell's output.
const helpTopicBashOutput = "bashes-output"

// shellReader is the part of a Backend that reads a background shell's kept
// output without consuming it (app.Backend has it, through
// agent.PeekShell); a backend without it lists shells only.
type shellReader interface {
	ShellOutput(sessionID, shellID string) (output string, dropped int64, err error)
}

// bashOutputView is /bashes ID's part of UIState: the shell shown and the
// output read for it (a snapshot: /bashes ID again reads newer output;
// nothing redraws on a timer).
type bashOutputView struct {
	id, text, err string
	dropped       int64
	loading       bool
	// other is the shell shown when it is another session's (id is then
	// its SESSION:ID, bashes_other.go): the shown session's list lacks it.
	other *ShellEntry
}

// openShellOutput is /bashes ID, as Claude Code's /bashes opens a shell: the
// help screen shows shell id's state and the output its buffer keeps, read
// off the event loop through the Backend (the model's BashOutput still gets
// all of it). It reports whether the view opened.
func (w *Workbench) openShellOutput(id string) bool {
	known := false
	for _, s := range w.model.Shells {
		known = known || s.ID == id
	}
	sid, shellID := w.liveID, id
	var other *ShellEntry
	if o, ok := findOtherShell(w.otherShells(), id); !known && ok {
		// another session's running shell (SESSION:ID)
		known, sid, shellID = true, o.SessionID, o.ShellID
		other = &ShellEntry{ID: o.ShellID, Command: o.Command, Running: true, ExitCode: -1}
	}
	if !known {
		w.Notify("warning", "no background shell "+termtext.Line(id)+" in this session (/bashes lists them)")
		return false
	}
	r, ok := w.be.(shellReader)
	if !ok || sid == "" {
		w.Notify("warning", "background shells' output cannot be read from here")
		return false
	}
	w.bashOut = bashOutputView{id: id, loading: true, other: other}
	w.helpOpen, w.helpOffset, w.helpTopic = true, 1<<20, helpTopicBashOutput // the latest output (clamped when drawn)
	w.goBackground(func() {
		out, dropped, err := r.ShellOutput(sid, shellID)
		w.pump.post(func() {
			if w.bashOut.id != id {
				return // another shell was opened meanwhile
			}
			w.bashOut = bashOutputView{id: id, text: out, dropped: dropped, other: other}
			if err != nil {
				w.bashOut.err = err.Error()
			}
		})
	})
	return true
}

// bashOutputLines are /bashes ID's lines for the shown session.
func (w *Workbench) bashOutputLines() []string {
	var entry ShellEntry
	for _, s := range w.model.Shells {
		if s.ID == w.bashOut.id {
			entry = s
		}
	}
	if w.bashOut.other != nil {
		entry = *w.bashOut.other // its state as /bashes SESSION:ID found it
	}
	return shellOutputLines(entry, w.bashOut)
}

// shellOutputLines renders one shell's output (pure): a heading with its
// state and command, then the output as written, every line cleaned
// (termtext.Clean: no escape reaches the screen; tabs as four spaces).
func shellOutputLines(s ShellEntry, v bashOutputView) []string {
	state := "running"
	if !s.Running {
		state = shellEnd(s.Reason, s.ExitCode)
	}
	lines := []string{
		fmt.Sprintf("Background shell %s · %s · %s", termtext.Line(v.id), state, termtext.Line(strings.TrimSpace(s.Command))),
		"(a snapshot: /bashes " + termtext.Line(v.id) + " again reads newer output; Esc closes; j/k, PgUp/PgDn scroll)", "",
	}
	switch {
	case v.loading:
		return append(lines, "  reading…")
	case v.err != "":
		return append(lines, "  "+termtext.Line(v.err))
	case v.text == "":
		return append(lines, "  no output yet (a Python server buffers its output when not on a terminal: run it as python3 -u)")
	}
	if v.dropped > 0 {
		lines = append(lines, fmt.Sprintf("  … %d earlier bytes no longer kept", v.dropped))
	}
	text := strings.TrimSuffix(termtext.Clean(v.text), "\n")
	for _, l := range strings.Split(text, "\n") {
		lines = append(lines, strings.ReplaceAll(l, "\t", "    "))
	}
	return lines
}
