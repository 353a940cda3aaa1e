package tui

import (
	"strings"

	"github.com/gdamore/tcell/v2"
)

// pen is a terminal's graphic rendition as the frame writer states it with
// SGR (ECMA-48 Select Graphic Rendition) parameters.
type pen struct {
	fg, bg string         // the colour's parameters ("91", "38;5;208", "38;2;1;2;3"); "": the terminal's default
	attrs  tcell.AttrMask // AttrBold, AttrDim, AttrItalic, AttrUnderline (a plain underline), AttrBlink, AttrReverse, AttrStrikeThrough
}

// sgrAttrs are the attributes a pen holds with the ECMA-48 parameters that
// set and clear each (22 clears bold and dim both).
var sgrAttrs = []struct {
	attr    tcell.AttrMask
	on, off string
}{
	{tcell.AttrBold, "1", "22"},
	{tcell.AttrDim, "2", "22"},
	{tcell.AttrItalic, "3", "23"},
	{tcell.AttrUnderline, "4", "24"},
	{tcell.AttrBlink, "5", "25"},
	{tcell.AttrReverse, "7", "27"},
	{tcell.AttrStrikeThrough, "9", "29"},
}

// blankShows are the attributes a blank cell shows: a line through or
// under it, or its colours swapped.
const blankShows = tcell.AttrUnderline | tcell.AttrReverse | tcell.AttrStrikeThrough

// blankAlike reports whether a blank printed in p looks as one printed in q:
// the same background and blankShows attributes, and in reverse video the
// same foreground (shown as the background). A blank's foreground, bold,
// dim, italic and blink do not show.
func (p pen) blankAlike(q pen) bool {
	return p.bg == q.bg && p.attrs&blankShows == q.attrs&blankShows && (p.attrs&tcell.AttrReverse == 0 || p.fg == q.fg)
}

// params returns p's parameters from a reset (SGR 0) on, ";"-joined.
func (p pen) params() string {
	var b []string
	for _, a := range sgrAttrs {
		if p.attrs&a.attr != 0 {
			b = append(b, a.on)
		}
	}
	for _, c := range []string{p.fg, p.bg} {
		if c != "" {
			b = append(b, c)
		}
	}
	return strings.Join(b, ";")
}

// sgrChange returns the SGR sequence that turns the terminal's pen from into
// to: "" when they are the same; when from is not known, a reset followed by
// to's parameters; otherwise the shorter of the changes alone (clearing only
// the attributes to lacks, setting only those it adds, a colour only if it
// differs; 39 and 49 restore the default colours) and that reset form.
func sgrChange(from pen, known bool, to pen) string {
	reset := "\x1b[m"
	if ps := to.params(); ps != "" {
		reset = "\x1b[0;" + ps + "m"
	}
	if !known {
		return reset
	}
	if from == to {
		return ""
	}
	var b []string
	cleared := tcell.AttrMask(0) // attributes an off parameter just cleared
	for _, a := range sgrAttrs {
		if from.attrs&a.attr != 0 && to.attrs&a.attr == 0 && !hasParam(b, a.off) {
			b = append(b, a.off)
			if a.off == "22" {
				cleared |= tcell.AttrBold | tcell.AttrDim
			}
		}
	}
	for _, a := range sgrAttrs {
		if to.attrs&a.attr != 0 && (from.attrs&a.attr == 0 || cleared&a.attr != 0) {
			b = append(b, a.on)
		}
	}
	b = appendColour(b, from.fg, to.fg, "39")
	b = appendColour(b, from.bg, to.bg, "49")
	if diff := "\x1b[" + strings.Join(b, ";") + "m"; len(diff) < len(reset) {
		return diff
	}
	return reset
}

// appendColour adds to b what turns colour from into to: nothing if equal,
// def (the default colour's parameter) if to is the default.
func appendColour(b []string, from, to, def string) []string {
	switch {
	case from == to:
		return b
	case to == "":
		return append(b, def)
	}
	return append(b, to)
}

func hasParam(b []string, p string) bool {
	for _, s := range b {
		if s == p {
			return true
		}
	}
	return false
}
