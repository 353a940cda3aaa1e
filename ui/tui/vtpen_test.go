package tui

import (
	"fmt"
	"strconv"
	"strings"
)

// vtPen is the graphic rendition a vtFake is in: attributes by their SGR
// parameter, colours as their parameters ("31", "38;5;208", "38;2;1;2;3";
// "" the default).
type vtPen struct {
	attrs  [10]bool // bold 1, dim 2, italic 3, underline 4, blink 5, reverse 7, strike-through 9
	fg, bg string
}

// String is the pen as cells record it: "" for the default rendition.
func (p vtPen) String() string {
	if p == (vtPen{}) {
		return ""
	}
	var b strings.Builder
	for i, on := range p.attrs {
		if on {
			fmt.Fprintf(&b, "%d,", i)
		}
	}
	fmt.Fprintf(&b, "fg=%s,bg=%s;", p.fg, p.bg)
	return b.String()
}

// blank is how p looks on a blank cell: its background, underline,
// reverse video (with the foreground, then shown) and strike-through; a
// blank's foreground, bold, dim, italic and blink do not show, so cells
// compare as a person sees them.
func (p vtPen) blank() vtPen {
	b := vtPen{bg: p.bg}
	for _, a := range []int{4, 7, 9} {
		b.attrs[a] = p.attrs[a]
	}
	if p.attrs[7] {
		b.fg = p.fg
	}
	return b
}

// sgr applies one SGR sequence's parameters (";"-separated, ":" sub-
// parameters kept with theirs) as xterm does.
func (v *vtFake) sgr(params string) {
	ps := strings.Split(params, ";")
	p := &v.rend
	for i := 0; i < len(ps); i++ {
		head, _, _ := strings.Cut(ps[i], ":")
		n, err := strconv.Atoi(head)
		if err != nil {
			n = 0 // an empty parameter is 0
		}
		switch {
		case n == 0:
			*p = vtPen{}
		case n == 1 || n == 2 || n == 3 || n == 4 || n == 5 || n == 7 || n == 9:
			p.attrs[n] = ps[i] != "4:0"
		case n == 22:
			p.attrs[1], p.attrs[2] = false, false
		case n >= 23 && n <= 29:
			p.attrs[n-20] = false
		case n >= 30 && n <= 37 || n >= 90 && n <= 97:
			p.fg = head
		case n >= 40 && n <= 47 || n >= 100 && n <= 107:
			p.bg = head
		case n == 39:
			p.fg = ""
		case n == 49:
			p.bg = ""
		case n == 38 || n == 48 || n == 58:
			k := 3 // 38;5;n
			if i+1 < len(ps) && ps[i+1] == "2" {
				k = 5 // 38;2;r;g;b
			}
			c := strings.Join(ps[i:min(i+k, len(ps))], ";")
			i += k - 1
			switch n {
			case 38:
				p.fg = c
			case 48:
				p.bg = c
			}
		}
	}
	v.pen = p.String()
}
