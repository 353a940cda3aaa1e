package tui

import (
	"sync/atomic"

	"github.com/gdamore/tcell/v2"
)

// watchTty is the terminal device tcell's screen is given: everything tcell
// writes goes through it and is counted, so the frame writer (frameout.go)
// knows when the terminal's pen, cursor position or cursor state may have
// changed under it (a full redraw, a resize tcell redrew on its own, a
// title, a beep) and states them afresh. The frame writer itself writes to
// the device underneath, not through this one.
type watchTty struct {
	tcell.Tty
	writes atomic.Uint64 // Write calls by tcell
}

// Write counts the call and writes p to the device.
func (t *watchTty) Write(p []byte) (int, error) {
	t.writes.Add(1)
	return t.Tty.Write(p)
}

// newTerminfoScreen returns tcell's terminfo screen for $TERM over tty,
// wrapped in a watchTty so pincer's frame writer can draw on the same
// device.
func newTerminfoScreen(tty tcell.Tty) (tcell.Screen, error) {
	return tcell.NewTerminfoScreenFromTty(&watchTty{Tty: tty})
}
