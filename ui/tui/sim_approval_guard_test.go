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
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Write", `{"file_path":"new.txt","content":"x\n"}`)),
		providertest.Text("written"),
	}}
	b, _, _, root := attached(t, 160, 50, prov)
	b.send("write it")
	b.waitText("3 Approvals (1)", "awaiting approval")
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
