package tui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"
)

// tabBarItem is one tab as the tab bar shows it: "2 feature ● ?1".
type tabBarItem struct {
	text  string
	shown bool // the tab shown (drawn highlighted)
	split bool // the split view's other side
}

// tabBarItems are the tab bar's items, one a tab in order: number, label, ●
// while its turn runs, ?N with N requests waiting for an answer.
func (w *Workbench) tabBarItems() []tabBarItem {
	out := make([]tabBarItem, len(w.tabs))
	for i, t := range w.tabs {
		text := fmt.Sprintf("%d %s", i+1, t.label())
		if t.turnRunning() {
			text += " ●"
		}
		if n := t.pending(); n > 0 {
			text += fmt.Sprintf(" ?%d", n)
		}
		out[i] = tabBarItem{text: text, shown: t == w.sessionTab, split: t == w.split}
	}
	return out
}

// pending is how many of the tab's requests wait for an answer (none while
// it shows a session read-only).
func (t *sessionTab) pending() int {
	if t.readOnly {
		return 0
	}
	return len(t.model.Approvals)
}

// drawTabBar draws the tab bar (only while more than one tab is open: r is
// empty otherwise): the shown tab highlighted, the split's other side
// underlined, the keys at the end when they fit.
func (w *Workbench) drawTabBar(screen tcell.Screen, r rect) {
	if r.W <= 0 || r.H <= 0 {
		return
	}
	base := w.theme.Style("muted")
	fillRow(screen, r.X, r.Y, r.W, base)
	x, end := r.X, r.X+r.W
	for _, it := range w.tabBarItems() {
		style := base
		switch {
		case it.shown:
			style = w.theme.Style("selection")
		case it.split:
			style = base.Underline(true)
		}
		if x >= end {
			break
		}
		x += printAt(screen, x, r.Y, end-x, " "+it.text+" ", style)
		if x < end {
			x += printAt(screen, x, r.Y, end-x, "│", base)
		}
	}
	keys := fmt.Sprintf(" %s new · %s/%s switch · %s close · %s split", w.keys.KeysOf(ActTabNew),
		w.keys.KeysOf(ActTabNext), w.keys.KeysOf(ActTabPrev), w.keys.KeysOf(ActTabClose), w.keys.KeysOf(ActSplit))
	if kw := textWidth(keys); end-x > kw {
		printAt(screen, end-kw, r.Y, kw, keys, base)
	}
}
