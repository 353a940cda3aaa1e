package tui

import (
	"slices"

	"github.com/gdamore/tcell/v2"
)

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
	o.forget()
	s.placeMark(w, h)
	cx, cy := s.terminalCursor()
	if !s.drawChanged(tb, w, h, cx, cy) {
		o.flush() // the cells drawn so far are on the terminal and in given: tcell draws the rest
		return false
	}
	o.cursor(cx, cy, w, h, s.shape, s.curColour)
	o.flush()
	return true
}

// changedCell reports whether the frame's cell i (str in style) must be
// drawn: never drawn, erased, or another grapheme or style.
func (s *sendScreen) changedCell(i int, str string, style tcell.Style) bool {
	g := &s.given[i]
	return !g.known || g.stale || g.str != str || g.style != style
}

// drawChanged draws every changed cell in tcell's order (row by row, a wide
// character's right half skipped), in one pass over the frame; the cell
// under a right half takes the frame's content in given and tcell's buffer,
// undrawn and (as tcell leaves it) dirty. Before the first changed cell it
// saves the terminal's cursor, shown at (cx, cy), if that will be shorter
// than moving back (save). It stops and reports false at a changed cell
// whose style, or that of one of the two cells after it (which a wide
// character's change may make it redraw), the writer cannot state: the cells
// before it are drawn and recorded, tcell is to draw the rest. A frame of
// syncOutCells cells or more on a terminal without synchronized output
// hides the cursor first, so its travels do not show.
func (s *sendScreen) drawChanged(tb *tcell.CellBuffer, w, h, cx, cy int) bool {
	o := s.out
	o.cellsDrawn, o.saved = 0, false
	var pens statedPens
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := y*w + x
			str, style, width := s.frame.Get(x, y) // s.cell, inlined: this loop is most of a frame's cost
			if x == s.markX && y == s.markY {
				style = s.markStyle(style)
			}
			if s.changedCell(i, str, style) {
				if !s.statable(&pens, x, y, w) {
					return false
				}
				if o.cellsDrawn == 0 && (o.x != x || o.y != y) {
					p, _ := o.caps.penOf(s.resolve(style))
					o.save(cx, cy, p)
				}
				s.drawCell(tb, x, y, w, str, style, width)
			}
			if width > 1 && x+1 < w {
				x++
				cs, cst, _ := s.cell(x, y)
				s.given[i+1] = givenCell{str: cs, style: cst, width: 1, known: true}
				tb.Put(x, y, cs, cst)
				tb.SetDirty(x, y, true)
			}
		}
	}
	if o.cellsDrawn >= syncOutCells && !o.caps.syncOut && o.shown != 0 {
		o.buf = slices.Insert(o.buf, 0, []byte(o.caps.ti.HideCursor)...)
		o.shown = 0
	}
	return true
}

// statedPens remembers the last style the writer found it can state, so a
// run of cells in one style is checked once.
type statedPens struct {
	style tcell.Style
	known bool
}

// statable reports whether the writer can state the pens of the cells x to
// x+2 of row y (w wide).
func (s *sendScreen) statable(pens *statedPens, x, y, w int) bool {
	for k := x; k < min(x+3, w); k++ {
		_, st, _ := s.cell(k, y)
		if pens.known && st == pens.style {
			continue
		}
		if _, ok := s.out.caps.penOf(s.resolve(st)); !ok {
			return false
		}
		pens.style, pens.known = st, true
	}
	return true
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
	if text == " " && o.penKnown && o.pen.blankAlike(p) {
		p = o.pen // a blank looks the same in the terminal's pen: no SGR (a margin's muted blanks between streamed rows)
	}
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

// SetStyle sets the style cells in StyleDefault are drawn in.
func (s *sendScreen) SetStyle(st tcell.Style) {
	s.mu.Lock()
	s.defStyle = st
	s.mu.Unlock()
	s.Screen.SetStyle(st)
}
