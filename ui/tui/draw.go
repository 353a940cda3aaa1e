package tui

import (
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// printAt draws text on one row from (x, y), at most maxW cells wide, cutting
// at a grapheme boundary; control characters are shown as spaces. It returns
// the cells used. Wide runes (CJK, emoji) take their real two cells.
func printAt(screen tcell.Screen, x, y, maxW int, text string, style tcell.Style) int {
	used := 0
	state := -1
	for text != "" && used < maxW {
		var cluster string
		var w int
		cluster, text, w, state = uniseg.FirstGraphemeClusterInString(text, state)
		runes := []rune(cluster)
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

// fillRow paints width cells of row y from x with spaces in style.
func fillRow(screen tcell.Screen, x, y, width int, style tcell.Style) {
	for i := 0; i < width; i++ {
		screen.SetContent(x+i, y, ' ', nil, style)
	}
}

// textWidth is the number of cells text takes.
func textWidth(text string) int { return uniseg.StringWidth(text) }

// firstLine returns the first line of s, marked with "…" when more follows.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i]) + " …"
	}
	return s
}
