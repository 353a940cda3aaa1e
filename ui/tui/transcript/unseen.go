package transcript

import (
	"github.com/gdamore/tcell/v2"

	"pincer/themes"
	"pincer/ui/tui/internal/cells"
)

// SetUnseenMarker sets the line shown on the pane's last row while the view
// is scrolled up and content arrived below since (as Claude Code's and
// Crush's "new messages" hint): the workbench names its keys back to the
// end in it, "↓ new output — G/End". "" shows no marker.
func (v *View) SetUnseenMarker(text string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.marker = text
}

// Unseen reports whether content arrived below while the view did not
// follow, not looked at since.
func (v *View) Unseen() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.unseen && !v.follow
}

// drawUnseen draws the marker over the last inner row when content arrived
// below while scrolled up. Lock held (called by Draw).
func (v *View) drawUnseen(screen tcell.Screen, x, y, w, h int, bg tcell.Style) {
	if v.follow {
		v.unseen = false
		return
	}
	if !v.unseen || v.marker == "" || h < 2 || len(v.entries) == 0 {
		return
	}
	row := y + h - 1
	fill(screen, x, row, x+w, bg)
	st := v.theme.Style(themes.TokenAccent).Reverse(true)
	cells.Print(screen, x, row, w, " "+v.marker+" ", st)
}
