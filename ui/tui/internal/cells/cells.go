// Package cells draws text into a tcell screen cell by cell, as every pane of the
// workbench and its overlays do: one row at a time, cut at a grapheme boundary,
// wide runes taking their two cells, control characters shown as spaces. It
// keeps no state.
package cells

import (
	"strings"

	"github.com/gdamore/tcell/v2"
)

// Print draws text on one row from (x, y), at most maxW cells wide, cutting
// at a grapheme boundary; control characters are shown as spaces. It returns
// the cells used. Wide runes (CJK, emoji) take their real two cells.
func Print(screen tcell.Screen, x, y, maxW int, text string, style tcell.Style) int {
	used := 0
	state := -1
	for text != "" && used < maxW {
		var cluster string
		var w int
		cluster, text, w, state = Next(text, state)
		runes := []rune(Glyph(cluster))
		if runes[0] == '\t' {
			runes, w = []rune{' '}, 1
		} else if runes[0] < ' ' || runes[0] == 0x7f {
			runes, w = []rune{' '}, 1
		}
		if w == 0 {
			continue
		}
		if used+w > maxW {
			break
		}
		for i := w - 1; i > 0; i-- { // the continuation cells of a wide rune first
			screen.SetContent(x+used+i, y, ' ', nil, style)
		}
		screen.SetContent(x+used, y, runes[0], runes[1:], style)
		used += w
	}
	return used
}

// Fill paints width cells of row y from x with spaces in style.
func Fill(screen tcell.Screen, x, y, width int, style tcell.Style) {
	for i := 0; i < width; i++ {
		screen.SetContent(x+i, y, ' ', nil, style)
	}
}

// Width is the number of cells text takes, as Next lays it out.
func Width(text string) int {
	w, state := 0, -1
	for text != "" {
		var cw int
		_, text, cw, state = Next(text, state)
		w += cw
	}
	return w
}

// FirstLine returns the first line of s, trimmed, marked with "…" when more
// follows.
func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i]) + " …"
	}
	return s
}
