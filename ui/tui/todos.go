package tui

import (
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// todoRows is how many rows the live task list wants: its header and items
// while a turn runs and it wrote a list not all done (liveTodos), else 0 (computeLayout caps
// it).
func (w *Workbench) todoRows() int {
	items := w.model.liveTodos()
	if !w.turnRunning() || len(items) == 0 {
		return 0
	}
	return 1 + len(items)
}

// drawTodos draws the live task list (TodoWrite's latest) in r: a header
// with the count done, then the items; when they do not fit, a window around
// the item in progress and a last row saying how many are left out.
func (w *Workbench) drawTodos(screen tcell.Screen, r rect) {
	items := w.model.liveTodos()
	if r.H <= 0 || r.W <= 2 || len(items) == 0 {
		return
	}
	done, current := 0, -1
	for i, it := range items {
		switch {
		case strings.HasPrefix(it, "[x]"):
			done++
		case strings.HasPrefix(it, "[>]") && current < 0:
			current = i
		}
	}
	text, muted, accent := w.theme.Style("text"), w.theme.Style("muted"), w.theme.Style("accent")
	for y := r.Y; y < r.Y+r.H; y++ {
		fillRow(screen, r.X, y, r.W, text)
	}
	printAt(screen, r.X+1, r.Y, r.W-2, "Tasks · "+strconv.Itoa(done)+" of "+strconv.Itoa(len(items))+" done", accent.Bold(true))
	rows := r.H - 1
	start, end := 0, len(items)
	if len(items) > rows {
		rows-- // the last row says what is left out
		start = max(0, min(current-rows/2, len(items)-rows))
		end = start + rows
	}
	y := r.Y + 1
	for i := start; i < end && y < r.Y+r.H; i++ {
		st := text
		switch {
		case strings.HasPrefix(items[i], "[x]"):
			st = muted
		case i == current:
			st = accent.Bold(true)
		}
		printAt(screen, r.X+3, y, r.W-4, items[i], st)
		y++
	}
	if left := len(items) - (end - start); left > 0 && y < r.Y+r.H {
		printAt(screen, r.X+3, y, r.W-4, "… "+strconv.Itoa(left)+" more", muted)
	}
}
