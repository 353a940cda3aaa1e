package tui

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// vtFake is a small terminal emulator for tests: it reads what tcell's
// terminfo screen writes for xterm-256color (cursor addressing, erase, SGR,
// private modes, OSC and DCS strings, which it skips but for the cursor
// moves and text) and keeps the grid a terminal would show. Text is measured
// grapheme by grapheme with uniseg, as tcell measures it. Overwriting either
// half of a wide character erases the other half, as xterm and tmux do.
// Autowrap is off (tcell turns it off); text past the last column is dropped.
type vtFake struct {
	w, h    int
	grid    [][]vtCell
	x, y    int
	printed int    // graphemes printed, blanks included
	again   int    // of those, printed over the same grapheme in the same pen (a cursor move by printing)
	pen     string // the graphic rendition in force, as vtPen.String shows it
	rend    vtPen
	pending []byte
	saved   vtSaved
	hidden  bool // the cursor is hidden (DECTCEM)
}

// vtSaved is what DECSC saves.
type vtSaved struct {
	x, y int
	rend vtPen
}

// vtCell is one cell: a grapheme (" " when blank) or the right half of the
// wide grapheme to its left.
type vtCell struct {
	str  string
	pen  string // the SGR parameters in force when it was printed
	cont bool
}

func newVTFake(w, h int) *vtFake {
	v := &vtFake{w: w, h: h}
	v.grid = make([][]vtCell, h)
	for y := range v.grid {
		v.grid[y] = make([]vtCell, w)
		v.eraseRow(y, 0)
	}
	return v
}

func (v *vtFake) eraseRow(y, from int) {
	for x := from; x < v.w; x++ {
		v.grid[y][x] = vtCell{str: " "}
	}
}

// feed interprets out.
func (v *vtFake) feed(out []byte) {
	b := append(v.pending, out...)
	v.pending = nil
	for len(b) > 0 {
		c := b[0]
		switch {
		case c == 0x1b:
			n := v.escape(b)
			if n == 0 { // incomplete: wait for more
				v.pending = append([]byte(nil), b...)
				return
			}
			b = b[n:]
		case c == '\b':
			if v.x > 0 {
				v.x--
			}
			b = b[1:]
		case c == '\r':
			v.x = 0
			b = b[1:]
		case c == '\n':
			if v.y < v.h-1 {
				v.y++
			}
			b = b[1:]
		case c < 0x20 || c == 0x7f:
			b = b[1:]
		default:
			end := 0
			for end < len(b) && b[end] >= 0x20 && b[end] != 0x7f {
				end++
			}
			run := b[:end]
			for len(run) > 0 && !utf8.FullRune(run) {
				run = run[:len(run)-1]
			}
			if len(run) == 0 { // an incomplete UTF-8 sequence
				v.pending = append([]byte(nil), b...)
				return
			}
			v.text(string(run))
			b = b[len(run):]
		}
	}
}

// escape interprets the escape sequence b starts with and returns its
// length (0: incomplete).
func (v *vtFake) escape(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	switch b[1] {
	case '[': // CSI: parameters, intermediates, a final byte
		i := 2
		for i < len(b) && (b[i] < 0x40 || b[i] > 0x7e) {
			i++
		}
		if i == len(b) {
			return 0
		}
		v.csi(string(b[2:i]), b[i])
		return i + 1
	case ']', 'P', '_', '^', 'X': // strings up to BEL or ST
		for i := 2; i < len(b); i++ {
			if b[i] == 0x07 {
				return i + 1
			}
			if b[i] == 0x1b && i+1 < len(b) && b[i+1] == '\\' {
				return i + 2
			}
		}
		return 0
	case '7': // DECSC: save the cursor and the pen
		v.saved = vtSaved{v.x, v.y, v.rend}
		return 2
	case '8': // DECRC: restore them (home and the default pen if none saved)
		v.x, v.y, v.rend = v.saved.x, v.saved.y, v.saved.rend
		v.pen = v.rend.String()
		return 2
	case '(', ')', '*', '+': // designate a character set
		if len(b) < 3 {
			return 0
		}
		return 3
	default:
		return 2
	}
}

func (v *vtFake) csi(params string, final byte) {
	if strings.ContainsAny(params, "?<=>") {
		for _, m := range strings.Split(strings.TrimPrefix(params, "?"), ";") {
			if m == "25" && (final == 'h' || final == 'l') { // DECTCEM: the cursor shown or hidden
				v.hidden = final == 'l'
			}
		}
		return // other private modes, queries
	}
	num := func(i, def int) int {
		parts := strings.Split(params, ";")
		if i >= len(parts) || parts[i] == "" {
			return def
		}
		n, err := strconv.Atoi(parts[i])
		if err != nil {
			return def
		}
		return n
	}
	switch final {
	case 'H', 'f':
		v.y, v.x = min(max(num(0, 1)-1, 0), v.h-1), min(max(num(1, 1)-1, 0), v.w-1)
	case 'J':
		if num(0, 0) == 2 {
			for y := range v.grid {
				v.eraseRow(y, 0)
			}
		}
	case 'K':
		v.split(v.x, v.y)
		v.eraseRow(v.y, v.x)
	case 'm':
		v.sgr(params)
	case 'A':
		v.y = max(v.y-num(0, 1), 0)
	case 'B':
		v.y = min(v.y+num(0, 1), v.h-1)
	case 'C':
		v.x = min(v.x+num(0, 1), v.w-1)
	case 'D':
		v.x = max(v.x-num(0, 1), 0)
	}
}

// split erases the wide character that covers (x, y) if x is its right half.
func (v *vtFake) split(x, y int) {
	if x > 0 && x < v.w && v.grid[y][x].cont {
		v.grid[y][x-1] = vtCell{str: " "}
		v.grid[y][x] = vtCell{str: " "}
	}
}

// text prints s at the cursor, grapheme by grapheme.
func (v *vtFake) text(s string) {
	state := -1
	for s != "" {
		var g string
		var width int
		g, s, width, state = uniseg.FirstGraphemeClusterInString(s, state)
		if width == 0 { // joins the cell before
			if v.x > 0 {
				v.grid[v.y][v.x-1].str += g
			}
			continue
		}
		if v.x+width > v.w {
			continue
		}
		row, pen := v.grid[v.y], v.pen
		if g == " " {
			pen = v.rend.blank().String()
		}
		if old := row[v.x]; old.str == g && old.pen == pen && !old.cont && (width == 1 || v.x+1 < v.w && row[v.x+1].cont) {
			v.again++
		}
		v.split(v.x, v.y)
		if last := v.x + width - 1; last+1 < v.w && row[last+1].cont {
			row[last+1] = vtCell{str: " "} // the right half of a wide character overwritten
		}
		row[v.x] = vtCell{str: g, pen: pen}
		if width == 2 {
			row[v.x+1] = vtCell{cont: true}
		}
		v.x += width
		if v.x >= v.w {
			v.x = v.w - 1
		}
		v.printed++
	}
}

// pens returns each row's cells' pens, ";"-separated cells, "|"-separated.
func (v *vtFake) pens() []string {
	out := make([]string, v.h)
	for y, row := range v.grid {
		var b strings.Builder
		for _, c := range row {
			b.WriteString(c.pen)
			b.WriteByte('|')
		}
		out[y] = b.String()
	}
	return out
}

// lines returns the grid as text, one line a row (right halves of wide
// characters omitted).
func (v *vtFake) lines() []string {
	out := make([]string, v.h)
	for y, row := range v.grid {
		var b strings.Builder
		for _, c := range row {
			if !c.cont {
				b.WriteString(c.str)
			}
		}
		out[y] = b.String()
	}
	return out
}

// snapshot returns a copy of the grid.
func (v *vtFake) snapshot() [][]vtCell {
	out := make([][]vtCell, len(v.grid))
	for y, row := range v.grid {
		out[y] = append([]vtCell(nil), row...)
	}
	return out
}

// changedSince counts the cells (a wide character one) whose grapheme or
// pen differs from those in before, a snapshot of the same size.
func (v *vtFake) changedSince(before [][]vtCell) int {
	n := 0
	for y, row := range v.grid {
		for x, c := range row {
			if (!c.cont || !before[y][x].cont) && c != before[y][x] {
				n++
			}
		}
	}
	return n
}
