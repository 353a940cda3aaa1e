package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/core/event"
	"pincer/core/provider/providertest"
)

// TestExpandedToolStaysExpanded: a tool entry the person expanded while it
// waited for approval stays expanded as its status moves on (running, done),
// and shows its output.
func TestExpandedToolStaysExpanded(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Read", `{"file_path":"a.txt"}`)),
		providertest.ToolCalls(providertest.ToolCall("c2", "Edit", `{"file_path":"a.txt","old_string":"hello","new_string":"HELLO"}`)),
		{Events: providertest.TextEvents("All done.")},
	}}
	b, _, _, root := attached(t, 160, 50, prov)
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b.send("shout")
	b.waitText("3 Approvals (1)", "awaiting approval")
	b.key(tcell.KeyRune, '1', tcell.ModAlt)
	b.waitFor("the Edit's entry to be selected", func(string) bool {
		sel, ok := b.w.view.Selected()
		if ok && sel.ID == toolBlockID("c2") {
			return true
		}
		b.key(tcell.KeyDown, 0, tcell.ModNone) // down (a key: runes 10 ms apart read as a paste), towards the last entry: the Edit awaiting approval
		return false
	})
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitFor("the Edit's entry to expand", func(string) bool {
		sel, ok := b.w.view.Selected()
		return ok && sel.ID == toolBlockID("c2") && !sel.Collapsed
	})
	b.key(tcell.KeyRune, '3', tcell.ModAlt)
	b.afterReading("y")
	s := b.waitText("All done.", "Edited a.txt: replaced 1 occurrence.")
	if y, _ := rowOf(s, "Edited a.txt"); y < 0 {
		t.Fatalf("the expanded entry collapsed again:\n%s", s)
	}
	if sel, ok := b.w.view.Selected(); !ok || sel.Collapsed || sel.Status != string(ToolDone) {
		t.Errorf("selected entry after the turn = %+v", sel)
	}
}

// TestWideRunesStreamIntoTheTranscript: "日本語" streamed in deltas that end
// between its runes, next to ASCII, wraps and draws whole, and the columns
// after it stay aligned.
func TestWideRunesStreamIntoTheTranscript(t *testing.T) {
	b, ag, sid, _ := attached(t, 100, 30, &providertest.Scripted{})
	ctx := t.Context()
	for _, d := range []string{"Hello ", "日", "本", "語", " and **", "太字", "** 🎉 end|"} {
		if _, err := ag.Log().Emit(ctx, event.MessageDelta, sid, "t", event.MessageDeltaData{MessageID: "m", Delta: d, Kind: "text"}); err != nil {
			t.Fatal(err)
		}
	}
	s := b.waitText("Hello 日本語 and 太字 🎉 end|")
	if strings.ContainsRune(s, '\uFFFD') {
		t.Errorf("a broken rune on screen:\n%s", s)
	}
	// The pane's right border is still in its column on that row: the wide
	// runes took their two cells each.
	y, _ := rowOf(s, "Hello 日本語")
	var got []rune
	border := -1
	b.onLoop(func() {
		x, _, w, _ := b.w.view.GetRect()
		border = x + w - 1
		cells, width, _ := b.sim.GetContents()
		got = cells[y*width+border].Runes
	})
	if len(got) == 0 || got[0] != '│' {
		t.Errorf("row %d has %q at the border column %d", y, string(got), border)
	}
}
