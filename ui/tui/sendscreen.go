package tui

import (
	"sync"

	"github.com/gdamore/tcell/v2"
)

// sendScreen wraps the screen tview draws on so that each frame hands the
// terminal only the cells whose content at the end of the frame differs from
// what they were last given (issue 19). tview clears the whole screen before
// every frame (Application.draw calls Clear, and a box fills its background
// before its content is drawn), and tcell v2.13's CellBuffer.Put marks a cell
// dirty whenever its content changes within a frame, even back to what the
// terminal already shows: without this wrapper every non-blank cell was
// re-sent every frame (typing one character on a 120×40 main screen sent
// 1,706 cells, 11 KB). No released tcell fixes it (v2.13.10 is the newest).
//
// The frame is drawn into the wrapper's own CellBuffer (the same Put, Fill
// and Get semantics tcell uses: grapheme clusters, widths, ColorNone keeping
// a colour). On a terminal pincer can write to (frameout.go), Show writes
// the cells whose grapheme or style differs from what the terminal shows
// itself (framewalk.go); otherwise, and for Sync, it hands them on to the
// screen underneath and shows it. The screen underneath does the rest as before: its own dirty tracking,
// wide characters (a wide cell's right neighbour is redrawn when it narrows),
// resize (tcell invalidates every cell), Sync (a full repaint of what it
// holds). Reads (Get, GetContent) see this frame, as tview expects. Size,
// cursor, events and the rest are the screen underneath's.
//
// Every method may be called from any goroutine (tview draws on its event
// loop; Size is also read elsewhere).
type sendScreen struct {
	tcell.Screen

	mu       sync.Mutex
	frame    tcell.CellBuffer // this frame as drawn so far
	given    []givenCell      // what each cell of Screen was last handed; row-major, the frame's size
	complete bool             // every cell of given is known: frames may be written by out

	out        *frameOut // pincer's writer of incremental frames; nil: tcell draws every frame
	outChecked bool      // out was decided for this initialisation of the screen
	// The cursor and default style as the workbench last set them (also
	// handed to Screen, for tcell's own redraws; cursor.go).
	curX, curY   int // -1: hidden
	shape        tcell.CursorStyle
	curColour    tcell.Color
	defStyle     tcell.Style
	drawn        bool // the cursor is drawn as a cell, the terminal's hidden (a turn runs)
	markX, markY int  // this frame's cell drawn as the cursor; -1: none
}

// givenCell is what one cell of the screen underneath was last handed by Put.
type givenCell struct {
	str   string
	style tcell.Style
	width int8 // the cells it covers on the terminal (2: a wide character, its right neighbour covered)
	known bool // false: never handed (a new or resized screen): hand it on
	stale bool // the terminal erased it (a wide character over it was overwritten): draw it again
}

// newSendScreen wraps s.
func newSendScreen(s tcell.Screen) *sendScreen {
	return &sendScreen{Screen: s, curX: -1, curY: -1, markX: -1, markY: -1, curColour: tcell.ColorNone}
}

// Init initialises the screen underneath and forgets what it was given (a
// re-initialised terminal is drawn afresh).
func (s *sendScreen) Init() error {
	err := s.Screen.Init()
	s.redrawAll()
	return err
}

// Resume resumes the screen underneath (the terminal was given back after
// Suspend: it shows anything) and has the next frame drawn whole, by tcell.
func (s *sendScreen) Resume() error {
	err := s.Screen.Resume()
	s.redrawAll()
	return err
}

// redrawAll forgets what the screen underneath was given and whether pincer
// can write frames itself (decided again at the next Show).
func (s *sendScreen) redrawAll() {
	s.mu.Lock()
	s.given, s.complete, s.out, s.outChecked = nil, false, nil, false
	s.mu.Unlock()
}

// fit resizes the frame to the screen underneath, forgetting what it was
// given if the size changed. Called with mu held.
func (s *sendScreen) fit() {
	w, h := s.Screen.Size()
	if fw, fh := s.frame.Size(); fw == w && fh == h && len(s.given) == w*h {
		return
	}
	s.frame.Resize(w, h)
	s.given, s.complete = make([]givenCell, w*h), false
}

// Clear fills the frame with blanks in the default style.
func (s *sendScreen) Clear() { s.Fill(' ', tcell.StyleDefault) }

// Fill fills the frame with r in style.
func (s *sendScreen) Fill(r rune, style tcell.Style) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fit()
	s.frame.Fill(r, style)
}

// Put draws the first grapheme cluster of str at (x, y) in the frame and
// returns the rest of str and the cells it took, as tcell.Screen.Put.
func (s *sendScreen) Put(x, y int, str string, style tcell.Style) (string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.frame.Put(x, y, str, style)
}

// PutStrStyled draws str from (x, y) on, one grapheme cluster after another,
// up to the end of the row.
func (s *sendScreen) PutStrStyled(x, y int, str string, style tcell.Style) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cols, rows := s.frame.Size()
	for str != "" && x < cols && y < rows {
		var width int
		str, width = s.frame.Put(x, y, str, style)
		if width == 0 {
			break
		}
		x += width
	}
}

// PutStr is PutStrStyled in the default style.
func (s *sendScreen) PutStr(x, y int, str string) { s.PutStrStyled(x, y, str, tcell.StyleDefault) }

// SetCell draws the runes ch (a blank if none) at (x, y).
func (s *sendScreen) SetCell(x, y int, style tcell.Style, ch ...rune) {
	if len(ch) == 0 {
		ch = []rune{' '}
	}
	s.Put(x, y, string(ch), style)
}

// SetContent draws mainc and its combining runes at (x, y).
func (s *sendScreen) SetContent(x, y int, mainc rune, combc []rune, style tcell.Style) {
	s.Put(x, y, string(append([]rune{mainc}, combc...)), style)
}

// Get returns the frame's cell at (x, y), as tcell.Screen.Get.
func (s *sendScreen) Get(x, y int) (string, tcell.Style, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.frame.Get(x, y)
}

// GetContent returns the frame's cell at (x, y), as tcell.Screen.GetContent.
func (s *sendScreen) GetContent(x, y int) (rune, []rune, tcell.Style, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.frame.GetContent(x, y)
}

// Show writes the frame's changed cells to the terminal itself
// (showOwn), or else hands them on and shows the screen underneath (tcell
// draws them).
func (s *sendScreen) Show() {
	if s.showOwn() {
		return
	}
	s.handOn()
	s.Screen.Show()
}

// Sync hands on the changed cells and has the screen underneath repaint the
// whole terminal.
func (s *sendScreen) Sync() {
	s.handOn()
	s.Screen.Sync()
}

// handOn puts into the screen underneath every cell of the frame whose
// grapheme or style differs from what that cell was last given; returns how
// many it put. Every cell is then known, with the width tcell will draw it
// in (a wide character that does not fit the row is one blank).
func (s *sendScreen) handOn() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fit()
	w, h := s.frame.Size()
	s.placeMark(w, h)
	n := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			str, style, width := s.cell(x, y)
			g := &s.given[y*w+x]
			drawn := int8(min(width, w-x))
			if g.known && !g.stale && g.str == str && g.style == style && g.width == drawn {
				continue
			}
			s.Screen.Put(x, y, str, style)
			*g = givenCell{str: str, style: style, width: drawn, known: true}
			n++
		}
	}
	s.complete = true
	return n
}
