package headless

import (
	"fmt"
	"io"

	"pincer/core/event"
	"pincer/ui/termtext"
)

// EndedShell is a background shell (Bash run_in_background) that was still
// running when the run ended, and that the run ended, as the json result
// lists it (endedShells): its ID, its command as the model wrote it, and
// shell.exited's reason ("session_ended").
type EndedShell struct {
	ShellID string `json:"shellId"`
	Command string `json:"command"`
	Reason  string `json:"reason"`
}

// endedShells collects the shells the run ended, from the shell.started
// and shell.exited events a run handles.
type endedShells struct {
	commands map[string]string // shell ID -> command, from shell.started
	list     []EndedShell
}

// see takes a shell.started (remembering its command) or a shell.exited
// with reason session_ended, which it lists and, when w is not nil, prints
// as one line there: `pincer: background shell bash_1 (CMD) was still
// running when the run ended: ended it`.
func (es *endedShells) see(ev event.Event, w io.Writer) {
	switch ev.Type {
	case event.ShellStarted:
		var d event.ShellStartedData
		if ev.Decode(&d) == nil {
			if es.commands == nil {
				es.commands = map[string]string{}
			}
			es.commands[d.ShellID] = d.Command
		}
	case event.ShellExited:
		var d event.ShellExitedData
		if ev.Decode(&d) != nil || d.Reason != "session_ended" {
			return
		}
		cmd := es.commands[d.ShellID]
		es.list = append(es.list, EndedShell{ShellID: d.ShellID, Command: cmd, Reason: d.Reason})
		if w != nil {
			fmt.Fprintf(w, "pincer: background shell %s (%s) was still running when the run ended: ended it\n", termtext.Line(d.ShellID), oneLine(termtext.Line(cmd), 200))
		}
	}
}

// oneLine cuts s to at most n runes, with "…" when cut.
func oneLine(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
