package tui

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestCursorMove: the frame writer's choice of cursor movement, the
// shortest sequence for each case.
func TestCursorMove(t *testing.T) {
	cases := []struct {
		name          string
		fx, fy, x, y  int
		advance, want string
	}{
		{"already there", 5, 3, 5, 3, "", ""},
		{"not known: CUP", -1, -1, 5, 3, "", "\x1b[4;6H"},
		{"not known, first column: CUP with the row only", -1, 3, 0, 3, "", "\x1b[4H"},
		{"not known, home", -1, -1, 0, 0, "", "\x1b[H"},
		{"one forward: CUF without a count", 5, 3, 6, 3, "", "\x1b[C"},
		{"one forward, the cell printed again is shorter", 5, 3, 6, 3, "a", "a"},
		{"two forward printed again", 5, 3, 7, 3, "ab", "ab"},
		{"four forward: CUF ties printing and wins", 5, 3, 9, 3, "abcd", "\x1b[4C"},
		{"forward over a multi-byte grapheme: CUF", 5, 3, 6, 3, "é", "é"},
		{"far forward: CUF", 5, 3, 60, 3, "", "\x1b[55C"},
		{"back to the first column: CR", 50, 3, 0, 3, "", "\r"},
		{"one back: CUB", 50, 3, 49, 3, "", "\x1b[D"},
		{"far back near the start: CR and CUF", 150, 3, 1, 3, "", "\r\x1b[C"},
		{"a tie of CUB and CR and CUF: CUB", 90, 3, 2, 3, "", "\x1b[88D"},
		{"back far from the start: CUB", 90, 3, 60, 3, "", "\x1b[30D"},
		{"printing again never goes back", 50, 3, 49, 3, "x", "\x1b[D"},
		{"the next row, same column: CUD", 5, 3, 5, 4, "", "\x1b[B"},
		{"the next row's start: CUD and CR", 40, 29, 0, 30, "", "\x1b[B\r"},
		{"a tie of CUP and CUD and CR: CUP", 40, 3, 0, 4, "", "\x1b[5H"},
		{"up one, forward one", 50, 20, 51, 19, "", "\x1b[A\x1b[C"},
		{"far rows and columns: CUP", 100, 2, 3, 30, "", "\x1b[31;4H"},
		{"printing again only on the row", 50, 20, 51, 21, "a", "\x1b[B\x1b[C"},
	}
	for _, c := range cases {
		if got := cursorMove(c.fx, c.fy, c.x, c.y, c.advance); got != c.want {
			t.Errorf("%s: cursorMove(%d,%d → %d,%d, %q) = %q, want %q", c.name, c.fx, c.fy, c.x, c.y, c.advance, got, c.want)
		}
	}
}

// TestSGRChange: the pen change the frame writer sends, the attributes
// that differ only, or a reset when that is shorter or the pen not known.
func TestSGRChange(t *testing.T) {
	red := pen{fg: "91"}
	rgb := pen{fg: "38;2;216;222;233", bg: "48;2;1;2;3"}
	bold, dim := tcell.AttrBold, tcell.AttrDim
	cases := []struct {
		name  string
		from  pen
		known bool
		to    pen
		want  string
	}{
		{"same: nothing", red, true, red, ""},
		{"not known: a reset and the pen", red, false, red, "\x1b[0;91m"},
		{"not known, to the default: a plain reset", red, false, pen{}, "\x1b[m"},
		{"to the default from one colour: the reset is shorter", red, true, pen{}, "\x1b[m"},
		{"the foreground to the default, bold kept: 39", pen{fg: "91", attrs: bold}, true, pen{attrs: bold}, "\x1b[39m"},
		{"to the default from two colours: the reset is shorter", rgb, true, pen{}, "\x1b[m"},
		{"the foreground only", rgb, true, pen{fg: "91", bg: rgb.bg}, "\x1b[91m"},
		{"the background to the default", rgb, true, pen{fg: rgb.fg}, "\x1b[49m"},
		{"bold on", red, true, pen{fg: "91", attrs: bold}, "\x1b[1m"},
		{"bold off", pen{fg: "91", attrs: bold}, true, red, "\x1b[22m"},
		{"bold off keeps dim: 22 clears both, dim again", pen{fg: rgb.fg, attrs: bold | dim}, true, pen{fg: rgb.fg, attrs: dim}, "\x1b[22;2m"},
		{"bold off, dim kept, no colour: the reset is shorter", pen{attrs: bold | dim}, true, pen{attrs: dim}, "\x1b[0;2m"},
		{"italic and underline off, reverse on", pen{fg: rgb.fg, attrs: tcell.AttrItalic | tcell.AttrUnderline}, true,
			pen{fg: rgb.fg, attrs: tcell.AttrReverse}, "\x1b[23;24;7m"},
		{"everything off from many: the reset", pen{fg: "91", bg: "44", attrs: bold | tcell.AttrItalic | tcell.AttrStrikeThrough}, true, pen{}, "\x1b[m"},
		{"a 256-colour background on", pen{}, true, pen{bg: "48;5;208"}, "\x1b[48;5;208m"},
		{"strike-through and blink off", pen{attrs: tcell.AttrStrikeThrough | tcell.AttrBlink}, true, pen{attrs: tcell.AttrBlink}, "\x1b[29m"},
	}
	for _, c := range cases {
		if got := sgrChange(c.from, c.known, c.to); got != c.want {
			t.Errorf("%s: sgrChange(%+v, %v, %+v) = %q, want %q", c.name, c.from, c.known, c.to, got, c.want)
		}
	}
}

// TestFrameWriterEdges draws frame sequences at the edges of the frame
// writer's model on two emulated terminals, through sendScreen and
// directly (tcell), and fails unless both show the same text and pens after
// each frame: every attribute turned off on its own (its off parameter), a
// wide character narrowed or written over another's left half (the erased
// right half drawn again), a wide character in the last column, a
// hyperlink (tcell draws that frame), the cursor moved, hidden and
// reshaped, tcell writing in between (a title), Sync and Suspend/Resume.
func TestFrameWriterEdges(t *testing.T) {
	rgb := tcell.StyleDefault.Foreground(tcell.NewRGBColor(216, 222, 233)).Background(tcell.NewRGBColor(30, 30, 46))
	bg := tcell.StyleDefault.Background(tcell.ColorNavy)
	row := func(fill tcell.Style, y int, text string, st tcell.Style) func(s tcell.Screen) {
		return func(s tcell.Screen) {
			s.Fill(' ', fill)
			s.PutStrStyled(0, y, text, st)
		}
	}
	frames := []func(s tcell.Screen){row(tcell.StyleDefault, 1, "abc", rgb)}
	for _, on := range []tcell.Style{rgb.Bold(true), rgb.Dim(true), rgb.Italic(true), rgb.Underline(true), rgb.Blink(true),
		rgb.Reverse(true), rgb.StrikeThrough(true), rgb.Bold(true).Dim(true), rgb.Dim(true)} {
		frames = append(frames, row(tcell.StyleDefault, 1, "abc", on), row(tcell.StyleDefault, 1, "abc", rgb))
	}
	frames = append(frames,
		row(bg, 1, "a中b", bg), row(bg, 1, "字 b", bg), // over a wide character's left half: its right half erased
		row(bg, 1, "中 b", bg), row(bg, 1, "a  b", bg), // narrowed: the right half drawn again
		row(bg, 1, "👩‍💻❤️é", bg), row(bg, 1, "x❤️é", bg),
		row(bg, 1, strings.Repeat("-", 11)+"中", bg), row(bg, 1, strings.Repeat("-", 11)+"a", bg), // the last column
		row(bg, 1, "link", bg.Url("https://example.com/")), row(bg, 1, "lint", bg),
		func(s tcell.Screen) { row(bg, 1, "cursor", bg)(s); s.ShowCursor(3, 1) },
		func(s tcell.Screen) { row(bg, 1, "cursors", bg)(s); s.ShowCursor(7, 1) },
		func(s tcell.Screen) {
			row(bg, 1, "cursors", bg)(s)
			s.SetCursorStyle(tcell.CursorStyleSteadyBar)
			s.ShowCursor(0, 2)
		},
		func(s tcell.Screen) { row(bg, 1, "cursorsz", bg)(s); s.ShowCursor(0, 2) }, // DECSC … DECRC
		func(s tcell.Screen) { row(bg, 1, "cursorszw", bg)(s); s.ShowCursor(0, 2) },
		func(s tcell.Screen) { row(bg, 1, "cursorszwv", rgb)(s); s.ShowCursor(0, 2) }, // another pen: CUP back
		func(s tcell.Screen) { row(bg, 1, "hidden", bg)(s); s.HideCursor() },
		func(s tcell.Screen) { s.SetTitle("marker"); row(bg, 1, "after a title", rgb)(s) },
	)
	p := newTTYPair(t, 12, 3)
	for i, draw := range frames {
		p.frame(t, draw)
		if i == len(frames)-3 {
			for _, s := range []tcell.Screen{p.direct, p.send} {
				s.Sync()
			}
		}
	}
	// tcell's own full redraw ends in another pen (the last cell's): the next
	// frame of the writer states its pen again.
	p.frame(t, row(bg, 1, "abc", rgb))
	p.frame(t, row(bg, 1, "abd", rgb)) // one cell: the writer's pen is rgb
	for _, s := range []tcell.Screen{p.direct, p.send} {
		s.Sync()
	}
	p.frame(t, row(bg, 1, "abe", rgb))
	if sent := p.stty.bytes(); !bytes.Contains(sent, []byte("\x1b7")) || !bytes.Contains(sent, []byte("\x1b8")) {
		t.Errorf("the writer never saved and restored the cursor (DECSC, DECRC)")
	}
	out := p.send.(*sendScreen).out
	if out == nil || out.frames < len(frames)/2 {
		t.Fatalf("pincer's writer wrote %+v frames of %d", out, len(frames))
	}
	// Suspended and resumed: the terminal was cleared, the next frame is drawn whole.
	for _, s := range []tcell.Screen{p.direct, p.send} {
		if err := s.Suspend(); err != nil {
			t.Fatal(err)
		}
		if err := s.Resume(); err != nil {
			t.Fatal(err)
		}
	}
	p.dvt, p.svt = newVTFake(12, 3), newVTFake(12, 3)
	p.dfed, p.sfed = len(p.dtty.bytes()), len(p.stty.bytes())
	p.frame(t, row(bg, 1, "resumed", rgb))
	if got := strings.Join(p.svt.lines(), "|"); !strings.Contains(got, "resumed") {
		t.Fatalf("after Resume the terminal shows %q", got)
	}
}

// TestFrameCapsTerminals: which terminals pincer writes frames on (tcell's
// terminfo for $TERM, its colour depth and character set) and which it
// leaves to tcell.
func TestFrameCapsTerminals(t *testing.T) {
	cases := []struct {
		term, colorterm, lang string
		want                  bool
	}{
		{"xterm-256color", "truecolor", "C.UTF-8", true},
		{"xterm-256color", "", "en_US.UTF-8", true},
		{"tmux-256color", "truecolor", "C.UTF-8", true}, // wraps at the last column, no insert-character
		{"screen-256color", "", "C.UTF-8", true},
		{"xterm", "", "C.UTF-8", true},
		{"xterm-256color", "", "C", false}, // US-ASCII: tcell translates
		{"vt100", "", "C.UTF-8", false},    // no colours
	}
	for _, c := range cases {
		t.Run(c.term+"/"+c.colorterm+"/"+c.lang, func(t *testing.T) {
			t.Setenv("TERM", c.term)
			t.Setenv("COLORTERM", c.colorterm)
			t.Setenv("LC_ALL", c.lang)
			s, err := newTerminfoScreen(newTTYFake(20, 4))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Init(); err != nil {
				t.Fatal(err)
			}
			defer s.Fini()
			if got := newFrameOut(s) != nil; got != c.want {
				t.Errorf("pincer writes frames: %v, want %v", got, c.want)
			}
		})
	}
}

// TestPenBlankAlike: a blank is drawn in the terminal's pen when it would
// look the same in its own (no SGR for a margin's muted blanks), not when
// its background, underline, strike-through or reverse video (which shows
// the foreground) differ.
func TestPenBlankAlike(t *testing.T) {
	text, muted := pen{fg: "38;2;216;222;233"}, pen{fg: "38;2;123;132;148"}
	cases := []struct {
		name string
		p, q pen
		want bool
	}{
		{"another foreground", text, muted, true},
		{"bold, dim, italic, blink", text, pen{fg: muted.fg, attrs: tcell.AttrBold | tcell.AttrDim | tcell.AttrItalic | tcell.AttrBlink}, true},
		{"another background", text, pen{fg: text.fg, bg: "44"}, false},
		{"underlined", text, pen{fg: text.fg, attrs: tcell.AttrUnderline}, false},
		{"struck through", text, pen{fg: text.fg, attrs: tcell.AttrStrikeThrough}, false},
		{"reverse video, the same foreground", pen{fg: "91", attrs: tcell.AttrReverse}, pen{fg: "91", attrs: tcell.AttrReverse | tcell.AttrBold}, true},
		{"reverse video, another foreground", pen{fg: "91", attrs: tcell.AttrReverse}, pen{fg: "92", attrs: tcell.AttrReverse}, false},
		{"reverse video against none", text, pen{fg: text.fg, attrs: tcell.AttrReverse}, false},
	}
	for _, c := range cases {
		if got := c.p.blankAlike(c.q); got != c.want {
			t.Errorf("%s: %+v.blankAlike(%+v) = %v, want %v", c.name, c.p, c.q, got, c.want)
		}
	}
}
