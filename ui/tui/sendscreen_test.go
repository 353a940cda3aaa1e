package tui

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// simPair is a frame drawn twice: on a simulation screen directly (as tview
// drew before sendScreen) and on a sendScreen over a second one.
type simPair struct {
	direct, under tcell.SimulationScreen
	send          *sendScreen
}

func newSimPair(t *testing.T, w, h int) *simPair {
	t.Helper()
	p := &simPair{direct: tcell.NewSimulationScreen("UTF-8"), under: tcell.NewSimulationScreen("UTF-8")}
	p.send = newSendScreen(p.under)
	for _, s := range []tcell.Screen{p.direct, p.send} {
		if err := s.Init(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Fini)
	}
	p.direct.SetSize(w, h)
	p.under.SetSize(w, h)
	return p
}

// frame draws draw on both (after a Clear, as tview does), shows both and
// returns how many cells sendScreen handed on.
func (p *simPair) frame(t *testing.T, draw func(s tcell.Screen)) int {
	t.Helper()
	p.direct.Clear()
	p.send.Clear()
	draw(p.direct)
	draw(p.send)
	p.direct.Show()
	n := p.send.handOn()
	p.send.Screen.Show()
	p.same(t)
	return n
}

// same fails unless both simulation screens hold the same cells.
func (p *simPair) same(t *testing.T) {
	t.Helper()
	dc, dw, dh := p.direct.GetContents()
	uc, uw, uh := p.under.GetContents()
	if dw != uw || dh != uh {
		t.Fatalf("size %dx%d, want %dx%d", uw, uh, dw, dh)
	}
	for i := range dc {
		if string(dc[i].Runes) != string(uc[i].Runes) || dc[i].Style != uc[i].Style {
			t.Fatalf("cell (%d,%d) is %q %v, want %q %v", i%dw, i/dw, string(uc[i].Runes), uc[i].Style, string(dc[i].Runes), dc[i].Style)
		}
	}
}

// TestSendScreenHandsOnOnlyChangedCells: each frame is cleared and redrawn
// whole, as tview does; only the cells whose final grapheme or style changed
// reach the screen underneath, and it ends up as the direct one.
func TestSendScreenHandsOnOnlyChangedCells(t *testing.T) {
	red := tcell.StyleDefault.Foreground(tcell.ColorRed)
	blue := tcell.StyleDefault.Background(tcell.ColorBlue)
	text := func(row string, style tcell.Style) func(s tcell.Screen) {
		return func(s tcell.Screen) {
			s.Fill(' ', blue)
			s.PutStrStyled(0, 1, row, style)
		}
	}
	steps := []struct {
		name   string
		before func(p *simPair)
		draw   func(s tcell.Screen)
		want   int // cells handed on
	}{
		{"first frame: every cell", nil, text("hello", red), 20 * 4},
		{"same frame again: none", nil, text("hello", red), 0},
		{"one character more", nil, text("hellos", red), 1},
		{"style only", nil, text("hellos", red.Bold(true)), 6},
		{"a wide character over two", nil, text("he中os", red.Bold(true)), 2}, // '中' and the blank its right half covers
		{"narrow again", nil, text("hellos", red.Bold(true)), 2},
		{"emoji with ZWJ, variation selector, combining mark", nil, text("👩‍💻❤️é!", red.Bold(true)), 6}, // the wide ones' right halves too
		{"unchanged emoji", nil, text("👩‍💻❤️é!", red.Bold(true)), 0},
		{"background only", nil, func(s tcell.Screen) {
			s.Fill(' ', tcell.StyleDefault.Background(tcell.ColorGreen))
			s.PutStrStyled(0, 1, "👩‍💻❤️é!", red.Bold(true))
		}, 20*4 - 4}, // all but the four cells drawn, right halves included
		{"resized: every cell again", func(p *simPair) { p.direct.SetSize(10, 3); p.under.SetSize(10, 3) }, text("hi", red), 10 * 3},
		{"after the resize: none", nil, text("hi", red), 0},
		{"Clear alone blanks", nil, func(tcell.Screen) {}, 10 * 3},
	}
	p := newSimPair(t, 20, 4)
	for _, st := range steps {
		if st.before != nil {
			st.before(p)
		}
		if got := p.frame(t, st.draw); got != st.want {
			t.Errorf("%s: handed on %d cells, want %d", st.name, got, st.want)
		}
	}
}

// TestSendScreenSync: Sync hands on what was drawn since the last Show and
// repaints; reads see the frame being drawn.
func TestSendScreenSync(t *testing.T) {
	p := newSimPair(t, 8, 2)
	p.frame(t, func(s tcell.Screen) { s.PutStr(0, 0, "abc") })
	p.send.PutStr(0, 1, "xyz")
	p.direct.PutStr(0, 1, "xyz")
	if str, _, _ := p.send.Get(1, 1); str != "y" {
		t.Fatalf("Get sees %q, want the frame's y", str)
	}
	p.send.Sync()
	p.direct.Sync()
	p.same(t)
}

// ttyPair is tcell's terminfo screen twice, each over a ttyFake whose output
// a vtFake interprets: one drawn directly, one through a sendScreen.
type ttyPair struct {
	direct, send       tcell.Screen
	dtty, stty         *ttyFake
	dvt, svt           *vtFake
	dfed, sfed, frames int
}

func newTTYPair(t *testing.T, w, h int) *ttyPair { return newTTYPairFor(t, "xterm-256color", w, h) }

// newTTYPairFor is newTTYPair with TERM=term.
func newTTYPairFor(t *testing.T, term string, w, h int) *ttyPair {
	t.Helper()
	p := &ttyPair{dvt: newVTFake(w, h), svt: newVTFake(w, h)}
	var under tcell.Screen
	p.direct, p.dtty = newTTYScreenFor(t, term, w, h)
	under, p.stty = newTTYScreenFor(t, term, w, h)
	p.send = newSendScreen(under)
	for _, s := range []tcell.Screen{p.direct, p.send} {
		if err := s.Init(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Fini)
	}
	return p
}

// frame draws draw on both, shows them, feeds each output to its vt and
// fails unless both terminals show the same; it returns the bytes each sent.
func (p *ttyPair) frame(t *testing.T, draw func(s tcell.Screen)) (direct, send int) {
	t.Helper()
	return p.framePair(t, draw, draw)
}

// framePair is frame with what is drawn directly (the expected terminal)
// and what is drawn through sendScreen given apart.
func (p *ttyPair) framePair(t *testing.T, drawDirect, drawSend func(s tcell.Screen)) (direct, send int) {
	t.Helper()
	p.frames++
	p.direct.Clear()
	drawDirect(p.direct)
	p.direct.Show()
	p.send.Clear()
	drawSend(p.send)
	p.send.Show()
	dout, sout := p.dtty.bytes(), p.stty.bytes()
	p.dvt.feed(dout[p.dfed:])
	p.svt.feed(sout[p.sfed:])
	direct, send = len(dout)-p.dfed, len(sout)-p.sfed
	p.dfed, p.sfed = len(dout), len(sout)
	dl, sl := p.dvt.lines(), p.svt.lines()
	for y := range dl {
		if dl[y] != sl[y] {
			t.Fatalf("frame %d, row %d shows %q, want %q (as drawn directly)", p.frames, y, sl[y], dl[y])
		}
	}
	if d, s := p.dvt, p.svt; d.hidden != s.hidden || !d.hidden && (d.x != s.x || d.y != s.y) {
		t.Fatalf("frame %d: the cursor is at %d,%d hidden %v, want %d,%d hidden %v (as drawn directly)", p.frames, s.x, s.y, s.hidden, d.x, d.y, d.hidden)
	}
	dp, sp := p.dvt.pens(), p.svt.pens()
	for y := range dp {
		if dp[y] != sp[y] {
			t.Fatalf("frame %d, row %d %q has the styles %q, want %q (as drawn directly)", p.frames, y, sl[y], sp[y], dp[y])
		}
	}
	return direct, send
}

// TestSendScreenWideCharactersOnTerminal draws frames that overwrite cells
// with narrower and wider graphemes (East Asian width 2, emoji with ZWJ and
// variation selectors, combining marks) at shifting positions and checks,
// on an emulated terminal, that sending only the changed cells shows what
// sending every cell shows, each frame, for fewer bytes; twice the window is
// resized on the way. It runs on xterm's terminfo and on tmux's (which wraps
// at the last column).
func TestSendScreenWideCharactersOnTerminal(t *testing.T) {
	for _, term := range []string{"xterm-256color", "tmux-256color"} {
		t.Run(term, func(t *testing.T) { wideCharactersOnTerminal(t, term) })
	}
}

func wideCharactersOnTerminal(t *testing.T, term string) {
	const w, h = 24, 6
	pool := []string{"a", "b", " ", "中", "字", "👍", "👩‍💻", "❤️", "é", "ｶ", "-", "☃"}
	rng := rand.New(rand.NewSource(19))
	rows := make([][]string, h)
	for y := range rows {
		for i := 0; i < w; i++ {
			rows[y] = append(rows[y], pool[rng.Intn(len(pool))])
		}
	}
	styles := []tcell.Style{tcell.StyleDefault, tcell.StyleDefault.Foreground(tcell.ColorRed), tcell.StyleDefault.Background(tcell.ColorNavy).Bold(true),
		tcell.StyleDefault.Foreground(tcell.NewRGBColor(216, 222, 233)).Background(tcell.NewRGBColor(30, 30, 46)).Italic(true),
		tcell.StyleDefault.Foreground(tcell.PaletteColor(208)).Underline(true).Dim(true),
		tcell.StyleDefault.Reverse(true).Bold(true).Dim(true).StrikeThrough(true),
		tcell.StyleDefault.Foreground(tcell.ColorRed).Url("https://example.com/"), // a hyperlink: tcell draws that frame
	}
	rowStyle := make([]tcell.Style, h)
	draw := func(s tcell.Screen) {
		for y, row := range rows {
			s.PutStrStyled(0, y, strings.Join(row, ""), rowStyle[y])
		}
	}
	p := newTTYPairFor(t, term, w, h)
	p.frame(t, draw)
	if got := strings.Join(p.svt.lines(), ""); !strings.Contains(got, "中") && !strings.Contains(got, "👍") {
		t.Fatalf("no wide character on the terminal: %q", got)
	}
	var direct, send int
	for f := 0; f < 300; f++ {
		if f == 100 || f == 200 { // the window resized: tcell repaints every cell at the next Show
			w, h := 18+f/20, 5+f/100
			p.dtty.w, p.dtty.h, p.stty.w, p.stty.h = w, h, w, h
			p.dvt, p.svt = newVTFake(w, h), newVTFake(w, h)
		}
		if f%50 == 25 { // every row restyled: a big frame (synchronized output)
			for y := range rowStyle {
				rowStyle[y] = styles[(f/50+y)%5]
			}
		}
		for k := rng.Intn(4); k >= 0; k-- {
			y := rng.Intn(h)
			i := rng.Intn(len(rows[y]))
			switch rng.Intn(4) {
			case 0: // insert: the rest of the row shifts right
				rows[y] = append(rows[y][:i], append([]string{pool[rng.Intn(len(pool))]}, rows[y][i:]...)...)
			case 1: // delete: it shifts left
				rows[y] = append(rows[y][:i], rows[y][i+1:]...)
			case 2:
				rows[y][i] = pool[rng.Intn(len(pool))]
			case 3:
				rowStyle[y] = styles[rng.Intn(len(styles))]
			}
		}
		d, s := p.frame(t, draw)
		direct, send = direct+d, send+s
	}
	out := p.send.(*sendScreen).out
	t.Logf("300 frames: %d bytes sending every cell, %d sending the changed ones (%d frames by pincer's writer, %d of them synchronized)",
		direct, send, out.frames, out.syncedFrames)
	if send >= direct {
		t.Errorf("sent %d bytes, no fewer than the %d of sending every cell", send, direct)
	}
	if out.frames < 150 || out.syncedFrames == 0 {
		t.Errorf("pincer's writer wrote %d of 300 frames (%d synchronized); want most, some big", out.frames, out.syncedFrames)
	}
}

// BenchmarkSendScreenFrame is one tview-style frame of 200×50 (Clear, then
// every row filled with text, one character changed, Show) on tcell's
// terminfo screen over a ttyFake, drawn directly (every non-blank cell sent,
// as before issue 19) and through sendScreen (the changed cell sent).
func BenchmarkSendScreenFrame(b *testing.B) {
	row := strings.Repeat("text 中文 👍 ", 20)
	for _, through := range []bool{false, true} {
		name := map[bool]string{false: "direct", true: "send"}[through]
		b.Run(name, func(b *testing.B) {
			s, tty := newTTYScreen(b, 200, 50)
			if through {
				s = newSendScreen(s)
			}
			if err := s.Init(); err != nil {
				b.Fatal(err)
			}
			defer s.Fini()
			out0 := len(tty.bytes())
			for i := 0; b.Loop(); i++ {
				s.Clear()
				for y := 0; y < 50; y++ {
					s.PutStrStyled(0, y, row, tcell.StyleDefault.Foreground(tcell.ColorSilver))
				}
				s.PutStr(i%200, 49, "#")
				s.Show()
			}
			b.ReportMetric(float64(len(tty.bytes())-out0)/float64(b.N), "bytes/op")
		})
	}
}
