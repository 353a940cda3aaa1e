package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/core/provider/providertest"
)

// squash joins a screen's words with single spaces, so a wrapped text reads
// as one line.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// rowsBetween returns the screen's rows from (and including) y0 to y1.
func rowsBetween(s string, y0, y1 int) string {
	ls := lines(s)
	return strings.Join(ls[max(y0, 0):min(y1+1, len(ls))], "\n")
}

// Found 6 (issue 12): messages were cut in the status line, the only place
// they appeared. At 80x24 the notices line wraps them whole above the input
// box, the status line keeps only state, and a notice that is not a key's
// confirmation is also in the transcript.
func TestNoticesWrapAndLeaveTheStatusLine(t *testing.T) {
	b, _, sid, _ := attached(t, 80, 24, &providertest.Scripted{})
	b.key(tcell.KeyCtrlC, 0, tcell.ModCtrl)
	s := b.waitText("press Ctrl+C again to quit")
	iy, _ := rowOf(s, "╔ Input")
	if y, _ := rowOf(s, "press Ctrl+C again to quit"); y != iy-1 {
		t.Errorf("the notice on row %d, want %d (above the input box)\n%s", y, iy-1, s)
	}
	status := lines(s)[22]
	if strings.Contains(status, "Ctrl+C") || !strings.Contains(status, shortID(sid)+" · idle") {
		t.Errorf("status line %q: want state only", status)
	}

	long := "configuration: .pincer/config.toml:3:9: permissions.allow[0]: unknown tool \"Bsh\" — every tool call is denied until this is fixed and pincer restarted"
	b.w.Notify("error", long)
	s = b.waitFor("the whole notice", func(s string) bool {
		iy, _ := rowOf(s, "╔ Input")
		return strings.Contains(squash(rowsBetween(s, iy-3, iy-1)), squash(long))
	})
	if strings.Contains(lines(s)[22], "configuration") {
		t.Errorf("the notice is in the status line:\n%s", s)
	}
	if ty, _ := rowOf(s, "1 Transcript"); !strings.Contains(squash(rowsBetween(s, ty, 11)), "error: configuration:") {
		t.Errorf("the error is not in the transcript:\n%s", s)
	}

	b.slash("/cost")
	b.waitFor("/cost on the notices line and in the transcript", func(s string) bool {
		return strings.Count(s, "0 turns · 0 input, 0 output, 0 cached tokens · cost none yet (no model call)") == 2
	})

	b.key(tcell.KeyF3, 0, tcell.ModNone) // every recent notice, the key's confirmation too
	s = b.waitText("Notices (3)")
	view := squash(s)
	for _, want := range []string{"press Ctrl+C again to quit", squash(long), "0 turns · 0 input"} {
		if !strings.Contains(view, want) {
			t.Errorf("the notices view lacks %q\n%s", want, s)
		}
	}
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.waitFor("the notices view to close", func(s string) bool { return !strings.Contains(s, "Notices (3)") })
}

// A new turn starts with an empty notices line: the notice stays in the
// notices view.
func TestNoticeLineClearsWhenATurnStarts(t *testing.T) {
	b, _, _, _ := attached(t, 120, 40, &providertest.Scripted{Steps: []providertest.Step{{Events: providertest.TextEvents("Hi.")}}})
	b.slash("/cost")
	b.waitText("0 turns · 0 input")
	b.send("hello")
	b.waitFor("the line cleared", func(s string) bool {
		return strings.Contains(s, "Hi.") && strings.Count(s, "0 turns · 0 input") == 1 // the transcript keeps it
	})
}
