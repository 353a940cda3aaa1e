package tui

import "github.com/gdamore/tcell/v2"

// showOwn writes this frame's changed cells to the terminal with the frame
// writer (frameout.go) and reports whether it did. It does not when tcell
// must draw the frame: no writer for this terminal, cells not known yet (the
// first frame, after a resize, Init or Resume: tcell repaints), tcell's
// screen or the device of another size (a resize under way), or a changed cell in a style
// the writer cannot state.
func (s *sendScreen) showOwn() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.outChecked {
		s.out, s.outChecked = newFrameOut(s.Screen), true
	}
	if s.out == nil {
		return false
	}
	s.fit()
	if !s.complete {
		return false
	}
	o := s.out
	o.cells.Lock()
	defer o.cells.Unlock()
	tb := o.cells.GetCells()
	w, h := s.frame.Size()
	if tw, th := tb.Size(); tw != w || th != h {
		return false
	}
	if ws, err := o.tty.WindowSize(); err != nil || ws.Width != w || ws.Height != h {
		return false // resized and tcell not told yet (its Show asks the device every frame, as this)
	}
	changed, first, ok := s.ownable(w, h)
	if !ok {
		return false
	}
	o.forget()
	if changed >= syncOutCells && !o.caps.syncOut && o.shown != 0 {
		o.buf = append(o.buf, o.caps.ti.HideCursor...) // no synchronized output: hide the cursor's travels
		o.shown = 0
	}
	if first >= 0 && first != o.y*w+o.x {
		_, st, _ := s.frame.Get(first%w, first/w)
		p, _ := o.caps.penOf(s.resolve(st))
		o.save(s.curX, s.curY, p)
	}
	s.drawChanged(tb, w, h)
	o.cursor(s.curX, s.curY, w, h, s.shape, s.curColour)
	o.flush()
	return true
}

// changedCell reports whether the frame's cell i (str in style) must be
// drawn: never drawn, erased, or another grapheme or style.
func (s *sendScreen) changedCell(i int, str string, style tcell.Style) bool {
	g := &s.given[i]
	return !g.known || g.stale || g.str != str || g.style != style
}

// ownable counts the cells that changed, returns the first one's index (-1:
// none) and reports whether the writer can state the style of each and of
// the two cells after each (which a wide character's change may make it
// redraw).
func (s *sendScreen) ownable(w, h int) (changed, first int, ok bool) {
	first = -1
	var last tcell.Style
	lastOK := false
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			str, style, _ := s.frame.Get(x, y)
			if !s.changedCell(y*w+x, str, style) {
				continue
			}
			if changed++; first < 0 {
				first = y*w + x
			}
			for k := x; k < min(x+3, w); k++ {
				_, st, _ := s.frame.Get(k, y)
				if lastOK && st == last {
					continue
				}
				if _, ok := s.out.caps.penOf(s.resolve(st)); !ok {
					return changed, first, false
				}
				last, lastOK = st, true
			}
		}
	}
	return changed, first, true
}

// drawChanged draws every changed cell in tcell's order (row by row, a wide
// character's right half skipped); the cell under a right half takes the
// frame's content in given and tcell's buffer, undrawn and (as tcell leaves
// it) dirty.
func (s *sendScreen) drawChanged(tb *tcell.CellBuffer, w, h int) {
	s.out.cellsDrawn = 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := y*w + x
			str, style, width := s.frame.Get(x, y)
			if s.changedCell(i, str, style) {
				s.drawCell(tb, x, y, w, str, style, width)
			}
			if width > 1 && x+1 < w {
				x++
				cs, cst, _ := s.frame.Get(x, y)
				s.given[i+1] = givenCell{str: cs, style: cst, width: 1, known: true}
				tb.Put(x, y, cs, cst)
				tb.SetDirty(x, y, true)
			}
		}
	}
}

// drawCell draws the grapheme str (width cells, as the CellBuffer measured
// it) at (x, y) as tcell's drawCell does, and records it drawn in given and
// in tcell's buffer. A wide character written over the left half of another
// erases that one's right half on the terminal, as one written over a wide
// character's left half: the cell is marked stale, drawn again further on.
func (s *sendScreen) drawCell(tb *tcell.CellBuffer, x, y, w int, str string, style tcell.Style, width int) {
	o := s.out
	i := y*w + x
	dw, text := max(width, 1), str
	if x > w-dw { // too wide for the row: one blank, as tcell
		dw, text = 1, " "
	}
	if x+dw < w && s.given[i+dw-1].width > 1 {
		s.given[i+dw].stale = true
	}
	p, _ := o.caps.penOf(s.resolve(style))
	o.moveTo(x, y, s.advance(x, y, w))
	o.setPen(p)
	if dw > 1 && x+dw < w {
		o.buf = append(o.buf, "  \b\b"...) // tcell's guard for terminals that keep the second cell's old image
	}
	o.buf = append(o.buf, text...)
	o.x += dw
	if dw > 1 || o.x >= w { // after a wide character, or at the last column: not known, as tcell
		o.x = -1
	}
	s.given[i] = givenCell{str: str, style: style, width: int8(dw), known: true}
	tb.Put(x, y, str, style)
	tb.SetDirty(x, y, false)
	if width > 1 && x+1 < w {
		tb.SetDirty(x+1, y, true)
	}
	o.cellsDrawn++
}

// advanceCells is how many cells the cursor may be moved over by printing
// them again: beyond 4, CUF is never longer.
const advanceCells = 4

// advance returns the bytes that print again the cells from the cursor up
// to column x on row y, which show what was last drawn there, or "" when
// that cannot move the cursor there: not on the row, too far, a cell not
// known, erased or wide, or in another pen than the terminal's.
func (s *sendScreen) advance(x, y, w int) string {
	o := s.out
	if o.x < 0 || o.y != y || x <= o.x || x-o.x > advanceCells || !o.penKnown {
		return ""
	}
	var b []byte
	for cx := o.x; cx < x; cx++ {
		g := s.given[y*w+cx]
		if !g.known || g.stale || g.width != 1 || cx > 0 && s.given[y*w+cx-1].width > 1 {
			return ""
		}
		if p, ok := o.caps.penOf(s.resolve(g.style)); !ok || p != o.pen {
			return ""
		}
		b = append(b, g.str...)
	}
	return string(b)
}

// resolve is the style tcell draws st in: the screen's default style
// (SetStyle) for StyleDefault.
func (s *sendScreen) resolve(st tcell.Style) tcell.Style {
	if st == tcell.StyleDefault {
		return s.defStyle
	}
	return st
}

// ShowCursor shows the cursor at (x, y) from the next frame on.
func (s *sendScreen) ShowCursor(x, y int) {
	s.mu.Lock()
	s.curX, s.curY = x, y
	s.mu.Unlock()
	s.Screen.ShowCursor(x, y)
}

// HideCursor hides the cursor from the next frame on.
func (s *sendScreen) HideCursor() { s.ShowCursor(-1, -1) }

// SetCursorStyle sets the cursor's shape and (optionally) colour.
func (s *sendScreen) SetCursorStyle(cs tcell.CursorStyle, colours ...tcell.Color) {
	s.mu.Lock()
	s.shape, s.curColour = cs, tcell.ColorNone
	if len(colours) > 0 {
		s.curColour = colours[0]
	}
	s.mu.Unlock()
	s.Screen.SetCursorStyle(cs, colours...)
}

// SetStyle sets the style cells in StyleDefault are drawn in.
func (s *sendScreen) SetStyle(st tcell.Style) {
	s.mu.Lock()
	s.defStyle = st
	s.mu.Unlock()
	s.Screen.SetStyle(st)
}
