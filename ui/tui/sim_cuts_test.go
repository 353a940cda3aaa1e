package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestStatusLineApprovalNotCut is a new-user trial's finding: at 80 and 120
// columns the status line ended "· approval w" / "approval waiting: y/s/": the
// approval notice is short and whole, the lower-priority fields go first.
func TestStatusLineApprovalNotCut(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		b, _ := pendingEdit(t, sz[0], sz[1], "hello\n", "hello", "HELLO")
		s := b.waitText("3 Approvals (1)")
		status := lines(s)[sz[1]-2]
		if !strings.Contains(status, "⏵ approval: y/s/a/n/N") || !strings.Contains(status, "running") {
			t.Errorf("%dx%d: the status line's approval notice is cut: %q", sz[0], sz[1], status)
		}
		b.stop()
	}
}

// TestApprovalsTitleFits: the queue's title fits its pane: the long notice
// with the keys where it fits, else the short one, never a cut one.
func TestApprovalsTitleFits(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		b, _ := pendingEdit(t, sz[0], sz[1], "hello\n", "hello", "HELLO")
		s := b.waitText("3 Approvals (1)")
		y, x := rowOf(s, "3 Approvals (1)")
		row := []rune(lines(s)[y])
		end := x
		for end < len(row) && row[end] != '╗' {
			end++
		}
		title := string(row[x:end])
		if strings.Contains(title, "…") {
			t.Errorf("%dx%d: the queue's title is cut: %q", sz[0], sz[1], title)
		}
		b.stop()
	}
}

// TestApprovalRowsElideNotCut: in the four-column layout at 200 columns the
// queue's row ended "? Edit settings.py  Edit nee": a row too long for the
// pane has its middle elided with "…", its end stays.
func TestApprovalRowsElideNotCut(t *testing.T) {
	b, _ := pendingEdit(t, 200, 50, "hello\n", "hello", "HELLO")
	b.w.app.QueueUpdateDraw(func() { b.w.layout = LayoutColumns })
	s := b.waitFor("the columns layout", func(s string) bool {
		y, _ := rowOf(s, "3 Approvals")
		return y == 0
	})
	y, x := rowOf(s, "║? Edit a.txt")
	if y < 0 {
		t.Fatalf("no queue row:\n%s", s)
	}
	row := []rune(lines(s)[y])[x+1:]
	end := 0
	for end < len(row) && row[end] != '║' {
		end++
	}
	cell := strings.TrimSpace(string(row[:end]))
	if !strings.HasSuffix(cell, "approval") && !strings.Contains(cell, "…") {
		t.Errorf("the queue's row is cut at its end: %q", cell)
	}
}

// TestHelpLinesWrap: at 80 columns F1's line for Esc ended "(first it
// unzooms a pane o": help lines wrap, the whole text is on the screen.
func TestHelpLinesWrap(t *testing.T) {
	b := startBench(t, 80, 24, Options{})
	b.waitText("1 Transcript")
	b.key(tcell.KeyF1, 0, tcell.ModNone)
	s := b.waitText("Help — Esc")
	// The keys follow the commands: scroll one row at a time until Esc's
	// line and the row after it show above the input box.
	for i := 0; ; i++ {
		y, _ := rowOf(s, "cancel the running turn")
		box, _ := rowOf(s, " Input ")
		if y >= 0 && y+2 < box {
			break
		}
		if i == 300 {
			t.Fatalf("Esc's help line never showed whole:\n%s", s)
		}
		prev := s
		b.key(tcell.KeyDown, 0, tcell.ModNone)
		s = b.waitFor("the help screen to scroll", func(s string) bool { return s != prev })
	}
	y, _ := rowOf(s, "cancel the running turn")
	both := lines(s)[y] + " " + lines(s)[y+1]
	if !strings.Contains(strings.Join(strings.Fields(both), " "), "(first it unzooms a pane or closes a view)") {
		t.Errorf("the Esc help line is cut:\n%s\n%s", lines(s)[y], lines(s)[y+1])
	}
}

// TestDiffKeysFromTheQueue: w typed with the focus in the queue a request
// took it to toggled nothing (it went to the input box): from the queue
// w/h/l act on the diff pane showing the request; the key bar names w after
// the approval keys; in the input box w stays a letter.
func TestDiffKeysFromTheQueue(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		b, _ := pendingEdit(t, sz[0], sz[1], "hello\n", "hello", "HELLO")
		s := b.waitText("3 Approvals (1)", "N deny with reason")
		if y, _ := rowOf(s, "w wrap"); y != sz[1]-1 {
			t.Errorf("%dx%d: the key bar does not name w:\n%s", sz[0], sz[1], lines(s)[sz[1]-1])
		}
		b.typeText("w")
		wrapIs := func(want bool) {
			b.waitFor("wrap to be "+map[bool]string{true: "on", false: "off"}[want], func(string) bool {
				var on bool
				b.onLoop(func() { on = b.w.diff.wrap })
				return on == want
			})
		}
		wrapIs(false)
		if b.focus() != paneApprovals {
			t.Errorf("%dx%d: w moved the focus to %d", sz[0], sz[1], b.focus())
		}
		b.typeText("w")
		wrapIs(true)
		b.key(tcell.KeyRune, '0', tcell.ModAlt)
		b.typeText("w") // in the input box w is a letter of the prompt
		b.waitText("║w")
		wrapIs(true)
		b.stop()
	}
}
