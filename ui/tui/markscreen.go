package tui

import (
	"github.com/gdamore/tcell/v2"

	"pincer/ui/tui/internal/cells"
)

// markScreen wraps the screen for the widgets tview draws itself (the input
// box, the reason field, small text views), which measure with uniseg alone
// and so give a halfwidth kana and its voiced sound mark ("ｶﾞ") one cell,
// where a terminal that measures code point by code point draws two and the
// rest of the row drifts (issue 12, Found 11). It drops the mark from such a
// cell (the kana shows bare, the row stays aligned), and a trailing ZERO
// WIDTH JOINER, which tmux would join to the next character it prints (see
// cells.FitCell). The workbench's own
// panes never pass it such a cell (they draw cells.Glyph, "ガ" over the two
// cells they measured).
type markScreen struct{ tcell.Screen }

// SetContent draws one cell, fitted by cells.FitCell.
func (s markScreen) SetContent(x, y int, mainc rune, combc []rune, style tcell.Style) {
	mainc, combc, _ = cells.FitCell(mainc, combc)
	s.Screen.SetContent(x, y, mainc, combc, style)
}
