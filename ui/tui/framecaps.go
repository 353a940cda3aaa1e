package tui

import (
	"os"
	"regexp"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
)

// frameCaps is what the frame writer (frameout.go) knows of the terminal,
// all of it as tcell decided it: its terminfo entry for $TERM (the same
// tcell.LookupTerminfo tcell's screen used, COLORTERM's true colour
// included), its colour depth (Screen.Colors) and its character set.
type frameCaps struct {
	ti           *terminfo.Terminfo
	truecolor    bool           // RGB colours are sent as RGB (Colors is 1<<24), as tcell does
	palette      []tcell.Color  // the palette tcell fits other colours to: ti.Colors entries, at most 256
	attrs        tcell.AttrMask // the attributes the terminal can show (its terminfo has the string)
	syncOut      bool           // synchronized output (ESC[?2026h/l): tcell sends it to xterm-like terminals
	cursorStyles bool           // DECSCUSR cursor shapes: tcell sends them to xterm-like or mouse terminals
	colours      map[colourUse]string
	pens         map[tcell.Style]penOrNot
}

// colourUse is a colour as a foreground or a background.
type colourUse struct {
	c  tcell.Color
	fg bool
}

// penOrNot is a style's pen, or ok false when the frame writer cannot state
// it (a hyperlink, an underline of another shape or colour, a colour whose
// terminfo string is no SGR).
type penOrNot struct {
	pen pen
	ok  bool
}

// sgrString is a terminfo string that is one SGR sequence; its group is the
// parameters.
var sgrString = regexp.MustCompile(`^\x1b\[([0-9;:]*)m$`)

// cursorShapes are tcell's DECSCUSR sequences for each cursor style
// (tcell's tscreen.go prepareCursorStyles; it does not export them).
var cursorShapes = map[tcell.CursorStyle]string{
	tcell.CursorStyleDefault:           "\x1b[0 q",
	tcell.CursorStyleBlinkingBlock:     "\x1b[1 q",
	tcell.CursorStyleSteadyBlock:       "\x1b[2 q",
	tcell.CursorStyleBlinkingUnderline: "\x1b[3 q",
	tcell.CursorStyleSteadyUnderline:   "\x1b[4 q",
	tcell.CursorStyleBlinkingBar:       "\x1b[5 q",
	tcell.CursorStyleSteadyBar:         "\x1b[6 q",
}

// newFrameCaps returns s's terminal's capabilities, or ok false when pincer
// cannot write its frames and tcell draws every one: a character set other
// than UTF-8 (tcell then translates graphemes), no colours (tcell then
// fakes them with reverse video), a terminal whose cursor addressing is not
// ECMA-48 CUP, has no cursor hide and show, or whose attributes are not
// plain SGR. A terminal that wraps at the
// last column (tcell cannot turn it off: tmux's terminfo) is written as
// tcell writes it: after the last column the cursor is not known (the next
// cell is reached by CUP, which ends the pending wrap); one that also has
// insert-character gets tcell's special bottom-right cell, so tcell draws.
// s has been initialised.
func newFrameCaps(s tcell.Screen) (*frameCaps, bool) {
	cs := s.CharacterSet()
	if !strings.EqualFold(cs, "UTF-8") && !strings.EqualFold(cs, "UTF8") || s.Colors() == 0 {
		return nil, false
	}
	ti, err := tcell.LookupTerminfo(os.Getenv("TERM"))
	if err != nil || ti.TGoto(4, 2) != "\x1b[3;5H" || ti.AutoMargin && ti.DisableAutoMargin == "" && ti.InsertChar != "" ||
		ti.ShowCursor == "" || ti.HideCursor == "" {
		return nil, false
	}
	c := &frameCaps{ti: ti, truecolor: s.Colors() == 1<<24, colours: map[colourUse]string{}, pens: map[tcell.Style]penOrNot{}}
	xtermLike := ti.XTermLike || strings.HasPrefix(ti.Name, "xterm")
	c.syncOut, c.cursorStyles = xtermLike, xtermLike || ti.Mouse != ""
	for i := range min(ti.Colors, 256) {
		c.palette = append(c.palette, tcell.PaletteColor(i))
	}
	terminfoAttr := map[tcell.AttrMask]string{tcell.AttrBold: ti.Bold, tcell.AttrDim: ti.Dim, tcell.AttrItalic: ti.Italic,
		tcell.AttrUnderline: ti.Underline, tcell.AttrBlink: ti.Blink, tcell.AttrReverse: ti.Reverse, tcell.AttrStrikeThrough: ti.StrikeThrough}
	for _, a := range sgrAttrs {
		switch str := terminfoAttr[a.attr]; str {
		case "":
		case "\x1b[" + a.on + "m":
			c.attrs |= a.attr
		default:
			return nil, false
		}
	}
	return c, true
}

// penOf returns the pen tcell would put st in (its drawCell and sendFgBg),
// cached; ok false when the frame writer cannot state it.
func (c *frameCaps) penOf(st tcell.Style) (pen, bool) {
	if p, ok := c.pens[st]; ok {
		return p.pen, p.ok
	}
	if len(c.pens) > 4096 { // styles are a theme's few; bound the cache anyway
		clear(c.pens)
	}
	p, ok := c.makePen(st)
	c.pens[st] = penOrNot{p, ok}
	return p, ok
}

func (c *frameCaps) makePen(st tcell.Style) (pen, bool) {
	if st.Url("") != st {
		return pen{}, false
	}
	fg, bg, attrs := st.Decompose()
	p := pen{attrs: attrs & c.attrs &^ tcell.AttrUnderline}
	switch us, uc := st.GetUnderlineStyle(), st.GetUnderlineColor(); {
	case us == tcell.UnderlineStyleNone:
	case us != tcell.UnderlineStyleSolid || uc == tcell.ColorReset || uc.Valid():
		return pen{}, false
	default:
		p.attrs |= tcell.AttrUnderline & c.attrs
	}
	var okFg, okBg bool
	p.fg, okFg = c.colour(colourUse{fg, true})
	p.bg, okBg = c.colour(colourUse{bg, false})
	return p, okFg && okBg
}

// colour returns the SGR parameters tcell's sendFgBg sends for u: none for
// the default, ColorReset or ColorNone; RGB in true colour; otherwise the
// palette entry (a palette colour itself, another the nearest by
// tcell.FindColor) through the terminfo's setaf / setab.
func (c *frameCaps) colour(u colourUse) (string, bool) {
	if !u.c.Valid() {
		return "", true
	}
	if p, ok := c.colours[u]; ok {
		return p, p != "\x00"
	}
	str := c.colourString(u)
	m := sgrString.FindStringSubmatch(str)
	p := "\x00" // not an SGR sequence: cannot be stated
	switch {
	case str == "":
		p = ""
	case m != nil:
		p = m[1]
	}
	c.colours[u] = p
	return p, p != "\x00"
}

func (c *frameCaps) colourString(u colourUse) string {
	ti := c.ti
	rgb, idx := ti.SetBgRGB, ti.SetBg
	if u.fg {
		rgb, idx = ti.SetFgRGB, ti.SetFg
	}
	if c.truecolor && u.c.IsRGB() && rgb != "" {
		r, g, b := u.c.RGB()
		return ti.TParm(rgb, int(r), int(g), int(b))
	}
	if idx == "" || len(c.palette) == 0 {
		return ""
	}
	v := u.c
	if u.c.IsRGB() || int(u.c-tcell.ColorValid) >= len(c.palette) {
		v = tcell.FindColor(u.c, c.palette)
	}
	return ti.TParm(idx, int(v&0xff))
}
