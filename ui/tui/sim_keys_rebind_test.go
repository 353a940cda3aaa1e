package tui

import (
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/core/provider/providertest"
)

// TestRebindNewlineToEnter (Found 13): with newline on Enter and send on
// Ctrl+S the table applies without a warning, the box's hint and the key bar
// name the keys in force (not the defaults'), Enter adds a line and Ctrl+S
// sends.
func TestRebindNewlineToEnter(t *testing.T) {
	km := DefaultKeyMap()
	if bad := km.Apply("/u/config.toml", map[string]string{"newline": "enter", "send": "ctrl+s"}); len(bad) != 0 {
		t.Fatalf("warnings: %q", bad)
	}
	prov := &providertest.Scripted{}
	b := startBench(t, 160, 40, Options{Keys: km})
	ag, _ := newTestAgent(t, prov)
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(backendOf(ag), s.ID)
	b.waitText("Ask pincer…  (Ctrl+S sends, Enter adds a line)", "Ctrl+S send", "Enter new line")
	b.typeText("one")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.typeText("two")
	b.waitInput("one\ntwo")
	b.key(tcell.KeyCtrlS, 0, tcell.ModCtrl)
	b.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	if got := prov.Request(0).Messages[len(prov.Request(0).Messages)-1].Text(); got != "one\ntwo" {
		t.Fatalf("the model got %q", got)
	}
}
