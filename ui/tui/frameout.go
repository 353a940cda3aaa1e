package tui

import (
	"github.com/gdamore/tcell/v2"
)

// syncOutCells is the number of cells drawn from which a frame is framed by
// synchronized output (ESC[?2026h … ESC[?2026l), so the terminal shows it
// whole: a frame of a few cells (a typed character, a streamed delta) goes
// without the 16 bytes.
const syncOutCells = 64

// tcellCells is what tcell's terminfo screen has beyond tcell.Screen (its
// baseScreen promotes them from screenImpl): the lock its draws hold and the
// CellBuffer they draw from.
type tcellCells interface {
	Lock()
	Unlock()
	GetCells() *tcell.CellBuffer
}

// frameOut is pincer's own writer of incremental frames (issue 19): under
// tcell's screen lock it writes a frame's changed cells straight to the
// terminal device, and puts them into tcell's CellBuffer marked as drawn,
// so tcell's idea of the screen stays the terminal's and its own full
// redraws (first frame, resize, Sync, after Resume) repaint what is there.
//
// It moves the cursor only when the next cell is not where the cursor is
// (cursorMove's shortest), states only the SGR attributes that differ from
// the terminal's pen (sgrChange), frames a frame in synchronized output only
// from syncOutCells cells on, and shows, hides or shapes the cursor only
// when that changes. Cells are drawn as tcell's drawCell draws them: the
// grapheme and width tcell's CellBuffer measured (uniseg), a wide character
// that does not fit the row as one blank, two blanks and two backspaces
// before a wide character (tcell's guard for terminals that leave the
// second cell's old image), the cursor's column not known after a wide
// character. Whatever tcell writes itself (any frame, a title, a beep)
// makes the pen, the cursor's position and its state not known, to be
// stated afresh.
type frameOut struct {
	caps  *frameCaps
	tty   *watchTty
	cells tcellCells

	seen         uint64 // tty.writes when this writer last knew the terminal's state
	x, y         int    // the cursor; x < 0: not known
	pen          pen
	penKnown     bool
	shown        int8 // the cursor: 1 shown, 0 hidden, -1 not known
	shape        tcell.CursorStyle
	shapeKnown   bool
	colour       tcell.Color // the cursor's colour as last sent (valid, or ColorReset)
	colourKnown  bool
	saved        bool // the cursor was saved (DECSC) at the frame's start, where the frame leaves it
	savedPen     pen
	savedKnown   bool
	buf          []byte
	cellsDrawn   int // cells drawn by the frame being written
	frames       int // frames written (tests read it)
	syncedFrames int // of those, in synchronized output
}

// newFrameOut returns the writer for s, or nil when tcell draws every frame:
// s is not tcell's terminfo screen over a watchTty (a simulation screen in
// tests) or newFrameCaps refuses the terminal.
func newFrameOut(s tcell.Screen) *frameOut {
	cells, ok := s.(tcellCells)
	if !ok {
		return nil
	}
	tty, ok := s.Tty()
	wt, isWatch := tty.(*watchTty)
	if !ok || !isWatch {
		return nil
	}
	caps, ok := newFrameCaps(s)
	if !ok {
		return nil
	}
	return &frameOut{caps: caps, tty: wt, cells: cells, x: -1, shown: -1}
}

// forget drops what the writer knew of the terminal's state when tcell
// wrote to it since.
func (o *frameOut) forget() {
	if n := o.tty.writes.Load(); n != o.seen {
		o.seen = n
		o.x, o.penKnown, o.shown, o.shapeKnown, o.colourKnown = -1, false, -1, false, false
	}
}

// moveTo moves the cursor to (x, y); advance are the bytes that print
// again the cells between the cursor and x on its row ("" if they cannot).
func (o *frameOut) moveTo(x, y int, advance string) {
	o.buf = append(o.buf, cursorMove(o.x, o.y, x, y, advance)...)
	o.x, o.y = x, y
}

// save saves the cursor with DECSC (ESC 7: its position and the pen) when it
// is shown at (x, y), where the frame will leave it, and the frame's first
// cell (elsewhere) is in the terminal's pen, first: DECRC (ESC 8, cursor)
// brings it back in 2 bytes, where CUP takes 6 to 8. (DECRC restores the
// pen too: a frame in another pen would have the next one state its pen
// again, so cursor takes DECRC only if the pen is still the saved one.)
// Only on xterm-like terminals (tcell's own test for the private sequences
// it sends).
func (o *frameOut) save(x, y int, first pen) {
	o.saved = false
	if !o.caps.syncOut || o.shown != 1 || o.x < 0 || o.x != x || o.y != y || !o.penKnown || o.pen != first {
		return
	}
	o.buf = append(o.buf, "\x1b7"...)
	o.saved, o.savedPen, o.savedKnown = true, o.pen, o.penKnown
}

// setPen states p.
func (o *frameOut) setPen(p pen) {
	o.buf = append(o.buf, sgrChange(o.pen, o.penKnown, p)...)
	o.pen, o.penKnown = p, true
}

// cursor shows the cursor at (x, y) in shape and colour, or hides it when
// (x, y) is off the w×h screen, sending only what changed.
func (o *frameOut) cursor(x, y, w, h int, shape tcell.CursorStyle, colour tcell.Color) {
	if x < 0 || y < 0 || x >= w || y >= h {
		if o.shown != 0 {
			o.buf = append(o.buf, o.caps.ti.HideCursor...)
			o.shown = 0
		}
		return
	}
	if o.saved && o.pen == o.savedPen && len(cursorMove(o.x, o.y, x, y, "")) > 2 {
		o.buf = append(o.buf, "\x1b8"...) // DECRC: back where save left it, in the pen it had
		o.x, o.y, o.pen, o.penKnown = x, y, o.savedPen, o.savedKnown
	}
	o.saved = false
	o.moveTo(x, y, "")
	if o.shown != 1 {
		o.buf = append(o.buf, o.caps.ti.ShowCursor...)
		o.shown = 1
	}
	if o.caps.cursorStyles && (!o.shapeKnown || o.shape != shape) {
		o.buf = append(o.buf, cursorShapes[shape]...)
		o.shape, o.shapeKnown = shape, true
	}
	if o.caps.cursorStyles && (colour == tcell.ColorReset || colour.Valid()) && (!o.colourKnown || o.colour != colour) {
		if colour == tcell.ColorReset {
			o.buf = append(o.buf, "\x1b]112\a"...)
		} else {
			r, g, b := colour.RGB()
			o.buf = append(o.buf, o.caps.ti.TParm("\x1b]12;#%p1%02x%p2%02x%p3%02x\007", int(r), int(g), int(b))...)
		}
		o.colour, o.colourKnown = colour, true
	}
}

// flush writes the frame's bytes to the device (one write), framed in
// synchronized output when it drew syncOutCells cells or more and the
// terminal takes it.
func (o *frameOut) flush() {
	o.frames++
	if len(o.buf) == 0 {
		return
	}
	out := o.buf
	if o.caps.syncOut && o.cellsDrawn >= syncOutCells {
		out = append(append([]byte("\x1b[?2026h"), out...), "\x1b[?2026l"...)
		o.syncedFrames++
	}
	_, _ = o.tty.Tty.Write(out)
	o.buf = o.buf[:0]
}
