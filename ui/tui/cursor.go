package tui

import "github.com/gdamore/tcell/v2"

// The cursor: where the workbench last put it (tview's focused input box
// calls ShowCursor while it draws), and how the terminal is to show it.
// Idle, the terminal's own cursor is shown there (an input method, a screen
// reader and the person's configured cursor shape follow it). While a turn
// runs (SetCursorDrawn), the cursor is drawn instead as a cell of the frame,
// the cell under it in reverse video, and the terminal's cursor is hidden:
// a streamed delta then starts where the terminal's cursor already is (just
// after the last delta) and is sent as its cells and nothing else (issue
// 19), where a shown cursor cost a move to the streamed text and one back.

// cursorDrawn is the workbench's policy for the cursor: drawn as a cell
// while the shown session runs a turn (the model streams or tools run),
// shown by the terminal while it waits for the person (idle, or a
// permission request waiting for an answer).
func (w *Workbench) cursorDrawn() bool {
	return w.turnRunning() && len(w.model.Approvals) == 0
}

// ShowCursor puts the cursor at (x, y) from the next frame on.
func (s *sendScreen) ShowCursor(x, y int) {
	s.mu.Lock()
	s.curX, s.curY = x, y
	drawn := s.drawn
	s.mu.Unlock()
	if drawn {
		s.Screen.HideCursor()
		return
	}
	s.Screen.ShowCursor(x, y)
}

// HideCursor hides the cursor from the next frame on.
func (s *sendScreen) HideCursor() { s.ShowCursor(-1, -1) }

// SetCursorStyle sets the terminal cursor's shape and (optionally) colour.
func (s *sendScreen) SetCursorStyle(cs tcell.CursorStyle, colours ...tcell.Color) {
	s.mu.Lock()
	s.shape, s.curColour = cs, tcell.ColorNone
	if len(colours) > 0 {
		s.curColour = colours[0]
	}
	s.mu.Unlock()
	s.Screen.SetCursorStyle(cs, colours...)
}

// SetCursorDrawn has the cursor drawn as a reverse-video cell with the
// terminal's cursor hidden (on), or shown by the terminal (off), from the
// next frame on. Calling it again with the same value changes nothing, so
// the terminal's cursor is hidden once when a turn starts and shown once
// when it ends.
func (s *sendScreen) SetCursorDrawn(on bool) {
	s.mu.Lock()
	if s.drawn == on {
		s.mu.Unlock()
		return
	}
	s.drawn = on
	x, y := s.curX, s.curY
	s.mu.Unlock()
	s.ShowCursor(x, y) // tcell's own redraws (a resize, Sync) show or hide it as this
}

// terminalCursor is where the terminal's cursor is to be shown: off the
// screen (hidden) while the cursor is drawn. Called with mu held.
func (s *sendScreen) terminalCursor() (x, y int) {
	if s.drawn {
		return -1, -1
	}
	return s.curX, s.curY
}

// placeMark decides the frame's cell drawn as the cursor: the one under
// it, or the wide character whose right half it is on; none when the
// terminal shows the cursor or it is hidden or off the w×h frame. Called
// with mu held, before the frame's cells are compared with given.
func (s *sendScreen) placeMark(w, h int) {
	s.markX, s.markY = -1, -1
	x, y := s.curX, s.curY
	if !s.drawn || x < 0 || y < 0 || x >= w || y >= h {
		return
	}
	if _, _, width := s.frame.Get(x-1, y); x > 0 && width > 1 {
		x--
	}
	s.markX, s.markY = x, y
}

// cell is the frame's cell at (x, y) as the terminal is to show it: the
// cell drawn as the cursor in reverse video (markStyle). Called with mu held.
func (s *sendScreen) cell(x, y int) (string, tcell.Style, int) {
	str, style, width := s.frame.Get(x, y)
	if x == s.markX && y == s.markY {
		style = s.markStyle(style)
	}
	return str, style, width
}

// markStyle is the style of the cell drawn as the cursor, style in reverse
// video (reverse text shown plain).
func (s *sendScreen) markStyle(style tcell.Style) tcell.Style {
	style = s.resolve(style)
	_, _, attrs := style.Decompose()
	return style.Reverse(attrs&tcell.AttrReverse == 0)
}
