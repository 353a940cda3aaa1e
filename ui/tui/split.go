package tui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"
)

// The split view shows two tabs' transcripts side by side in the
// transcript's pane: the shown tab's on the left (it has the keys, the
// timeline, approvals and diff), another tab's on the right, live. The split
// key toggles it; switching to the right-hand tab swaps the sides.

// toggleSplit opens the split view with the next tab on the right, or
// closes it. Event loop only.
func (w *Workbench) toggleSplit() {
	switch {
	case w.split != nil:
		w.split = nil
	case len(w.tabs) < 2:
		w.hint("the split view shows two tabs: " + w.keys.KeysOf(ActTabNew) + " opens another")
	default:
		w.split = w.tabs[(w.tabIndex()+1)%len(w.tabs)]
	}
}

// drawSplit draws the split's other tab's transcript in r (empty: none).
func (w *Workbench) drawSplit(screen tcell.Screen, r rect) {
	t := w.split
	if t == nil || r.W <= 0 || r.H <= 0 {
		return
	}
	t.view.SetTitle(fmt.Sprintf(" Tab %d · %s ", w.tabNumber(t), t.label()))
	t.view.SetBorderColor(w.theme.Color("muted"))
	t.view.SetRect(r.X, r.Y, r.W, r.H)
	t.view.Draw(screen)
}
