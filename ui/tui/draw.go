package tui

import (
	"github.com/gdamore/tcell/v2"

	"pincer/ui/tui/internal/cells"
)

// printAt draws text on one row (cells.Print).
func printAt(screen tcell.Screen, x, y, maxW int, text string, style tcell.Style) int {
	return cells.Print(screen, x, y, maxW, text, style)
}

// fillRow paints width cells of row y from x with spaces (cells.Fill).
func fillRow(screen tcell.Screen, x, y, width int, style tcell.Style) {
	cells.Fill(screen, x, y, width, style)
}

// textWidth is the number of cells text takes (cells.Width).
func textWidth(text string) int { return cells.Width(text) }

// firstLine returns the first line of s, marked with "…" when more follows
// (cells.FirstLine).
func firstLine(s string) string { return cells.FirstLine(s) }
