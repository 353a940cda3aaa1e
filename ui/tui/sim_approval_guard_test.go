package tui

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/provider/providertest"
)

// TestPastedKeysDoNotApprove: keys that arrive in a burst (pasted text, a
// script) while the approvals pane has the keys do not answer the pending
// request; the same key pressed on its own does.
func TestPastedKeysDoNotApprove(t *testing.T) {
	b, root := writeAwaitingApproval(t)
	b.key(tcell.KeyRune, '3', tcell.ModAlt)
	b.waitFor("the approvals focused", func(string) bool { return b.focus() == paneApprovals })
	time.Sleep(3 * burstGap)
	b.typeText("yyy") // as a paste of "yyy" would arrive
	b.waitText("do not answer an approval")
	time.Sleep(5 * burstGap)
	if _, err := os.Stat(filepath.Join(root, "new.txt")); err == nil {
		t.Fatal("a burst of keys approved the Write")
	}
	b.model(func(m *Model) {
		if len(m.Approvals) != 1 {
			t.Errorf("%d pending approvals after the burst, want 1", len(m.Approvals))
		}
	})
	b.afterReading("y") // the hint's notices line moved the panes: the request's grace started again
	b.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	if _, err := os.Stat(filepath.Join(root, "new.txt")); err != nil {
		t.Fatalf("y on its own did not approve: %v", err)
	}
}

// TestFastTypingIntoTheBoxKeepsItsLetters: a word typed fast into the empty
// input box while an approval waits is the box's text, all of it — its
// first letters are approval keys (s, a, n) and used to vanish (new user
// r21 finding 9) — and answers nothing.
func TestFastTypingIntoTheBoxKeepsItsLetters(t *testing.T) {
	b, root := writeAwaitingApproval(t)
	time.Sleep(3 * burstGap)
	b.typeText("sandwich")
	var text string
	b.waitFor("the word in the box", func(string) bool {
		b.onLoop(func() { text = b.w.input.GetText() })
		return text == "sandwich"
	})
	time.Sleep(5 * burstGap)
	if _, err := os.Stat(filepath.Join(root, "new.txt")); err == nil {
		t.Fatal("typing approved the Write")
	}
	b.model(func(m *Model) {
		if len(m.Approvals) != 1 {
			t.Errorf("%d pending approvals after typing, want 1", len(m.Approvals))
		}
	})
}

// writeAwaitingApproval is a workbench whose turn's Write of new.txt waits
// for approval, and the workspace root.
func writeAwaitingApproval(t *testing.T) (*simBench, string) {
	t.Helper()
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Write", `{"file_path":"new.txt","content":"x\n"}`)),
		providertest.Text("written"),
	}}
	b, _, _, root := attached(t, 160, 50, prov)
	b.send("write it")
	b.waitText("3 Approvals (1)", "awaiting approval")
	return b, root
}
