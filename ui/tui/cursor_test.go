package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestSendScreenDrawnCursor: with the cursor drawn (SetCursorDrawn, a turn
// running), the terminal shows the cell under the cursor in reverse video,
// a wide character or emoji whole whichever half the cursor is on, with the
// terminal's cursor hidden; shown by the terminal again, the cell is plain
// and the terminal's cursor is there. Each frame is checked on an emulated
// terminal against tcell drawing the expected cells directly (text, pens,
// the cursor hidden or where), through moves, typing, a reverse-video cell
// (shown plain), Sync and a resize, on xterm's and tmux's terminfo.
func TestSendScreenDrawnCursor(t *testing.T) {
	for _, term := range []string{"xterm-256color", "tmux-256color"} {
		t.Run(term, func(t *testing.T) { drawnCursorOnTerminal(t, term) })
	}
}

func drawnCursorOnTerminal(t *testing.T, term string) {
	rgb := tcell.StyleDefault.Foreground(tcell.NewRGBColor(216, 222, 233)).Background(tcell.NewRGBColor(30, 30, 46))
	type step struct {
		text   string
		style  tcell.Style
		x      int // the cursor on row 1
		drawn  bool
		sync   bool
		resize bool
	}
	steps := []step{
		{text: "ab中c", x: 1},
		{text: "ab中c", x: 1, drawn: true}, // the turn starts: b drawn, the terminal's cursor hidden
		{text: "ab中c", x: 2, drawn: true}, // on the wide character's left half
		{text: "ab中c", x: 3, drawn: true}, // on its right half: the wide character still
		{text: "ab中c", x: 5, drawn: true}, // past the text: a blank
		{text: "ab中cd", x: 6, drawn: true},
		{text: "ab中cde", x: 7, drawn: true}, // typing moves the drawn cell
		{text: "ab中cde", style: rgb, x: 7, drawn: true},
		{text: "ab中cde", style: rgb.Reverse(true), x: 0, drawn: true}, // reverse text under the cursor: shown plain
		{text: "x👩‍💻❤️é", style: rgb, x: 1, drawn: true},
		{text: "x👩‍💻❤️é", style: rgb, x: 3, drawn: true, sync: true},
		{text: "x👩‍💻❤️é", style: rgb, x: 4, drawn: true, resize: true},
		{text: "x👩‍💻❤️é", style: rgb, x: 5, drawn: true},
		{text: "x👩‍💻❤️é", style: rgb, x: 5}, // the turn ends: the terminal's cursor shown, the cell plain
		{text: "x👩‍💻❤️éf", style: rgb, x: 6},
		{text: "x👩‍💻❤️éf", style: rgb, x: 1, drawn: true},
		{text: "x👩‍💻❤️éf", style: rgb, x: 1},
	}
	w, h := 12, 3
	p := newTTYPairFor(t, term, w, h)
	send := p.send.(*sendScreen)
	for _, st := range steps {
		if st.resize {
			w, h = 14, 4
			p.dtty.w, p.dtty.h, p.stty.w, p.stty.h = w, h, w, h
			p.dvt, p.svt = newVTFake(w, h), newVTFake(w, h)
		}
		direct := func(s tcell.Screen) {
			s.PutStrStyled(0, 1, st.text, st.style)
			if !st.drawn {
				s.ShowCursor(st.x, 1)
				return
			}
			s.HideCursor()
			x := st.x
			if _, _, width := s.Get(x-1, 1); x > 0 && width > 1 {
				x--
			}
			str, style, _ := s.Get(x, 1)
			_, _, attrs := style.Decompose()
			s.PutStrStyled(x, 1, str, style.Reverse(attrs&tcell.AttrReverse == 0))
		}
		through := func(s tcell.Screen) {
			s.PutStrStyled(0, 1, st.text, st.style)
			s.ShowCursor(st.x, 1)
			send.SetCursorDrawn(st.drawn)
		}
		p.framePair(t, direct, through)
		if st.sync {
			p.direct.Sync()
			p.send.Sync()
			p.framePair(t, direct, through)
		}
		if got := p.svt.hidden; got != st.drawn {
			t.Fatalf("frame %d (%q, cursor at %d, drawn %v): the terminal's cursor hidden %v", p.frames, st.text, st.x, st.drawn, got)
		}
	}
	if got := strings.Join(p.svt.lines(), "|"); !strings.Contains(got, "x👩‍💻❤️éf") {
		t.Fatalf("the terminal shows %q", got)
	}
	if send.out == nil || send.out.frames < len(steps)/2 {
		t.Fatalf("pincer's writer wrote %+v of %d frames", send.out, len(steps))
	}
}
