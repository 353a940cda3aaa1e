package tui

import (
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/core/provider"
	"pincer/core/provider/providertest"
)

// TestEscUnzoomsBeforeItCancels (Found 13): while a turn runs, Esc in a
// zoomed pane unzooms it and the turn goes on; only the next Esc, with
// nothing left to close, cancels the turn.
func TestEscUnzoomsBeforeItCancels(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{{Events: []provider.Event{{Type: provider.EventTextDelta, Text: "thinking"}}, Block: true}}}
	b, _, _, _ := attached(t, 160, 50, prov)
	b.send("work forever")
	b.waitModel("the turn to run", func(m *Model) bool { return m.Status.Turn == TurnRunning })
	b.key(tcell.KeyRune, '2', tcell.ModAlt) // the timeline
	b.typeText("z")
	b.waitFor("the timeline to zoom", func(string) bool {
		z := -1
		b.onLoop(func() { z = b.w.zoom })
		return z == paneTimeline
	})
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.waitFor("the pane to unzoom", func(string) bool {
		z := 0
		b.onLoop(func() { z = b.w.zoom })
		return z == -1
	})
	var turn string
	b.model(func(m *Model) { turn = m.Status.Turn })
	if turn != TurnRunning {
		t.Fatalf("Esc in a zoomed pane left the turn %v, want it running", turn)
	}
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.waitModel("the cancellation", func(m *Model) bool { return m.Status.Turn == TurnCancelled })
}
