package transcript

import (
	"github.com/gdamore/tcell/v2"

	"pincer/themes"
	"pincer/ui/tui/internal/cells"
	"pincer/ui/tui/markdown"
)

// Draw draws the visible rows only: it walks from the first visible block
// (or back from the last one when following) and renders just the blocks it
// meets, from their per-width caches when they have one.
//
// The box's border and title are drawn by tview, but its background fill of
// the inner area is skipped (it cost 80% of a frame): every inner cell is
// written exactly once here, content or background.
func (v *View) Draw(screen tcell.Screen) {
	x, y, w, h := v.GetInnerRect()
	v.Box.DrawForSubclass(outsideOnly{screen, x, y, w, h}, v)
	x, y, w, h = v.GetInnerRect()
	v.mu.Lock()
	defer v.mu.Unlock()
	v.rowsDrawn = 0
	if w <= 0 || h <= 0 {
		return
	}
	bg := tcell.StyleDefault.Background(v.GetBackgroundColor())
	row := 0
	defer v.drawUnseen(screen, x, y, w, h, bg) // over the last row, after the fill below
	defer func() {
		for ; row < h; row++ {
			fill(screen, x, y+row, x+w, bg)
		}
	}()
	if w <= gutterWidth || len(v.entries) == 0 {
		return
	}
	v.width, v.height = w-gutterWidth, h
	if v.follow {
		v.top, v.topRow = v.bottomAnchor()
	} else {
		v.clampAnchor()
	}
	focused := v.HasFocus()
	i, r := v.top, v.topRow
	for ; row < h && i < len(v.entries); row++ {
		e := v.entries[i]
		n := e.rowCount(v, i)
		if r >= n {
			i, r = i+1, 0
			row--
			continue
		}
		v.drawRow(screen, x, y+row, w, i, r, focused && i == v.sel, bg)
		r++
		if r >= n {
			i, r = i+1, 0
		}
	}
}

// drawRow draws row r (spacer included) of block i at (x, y).
func (v *View) drawRow(screen tcell.Screen, x, y, w, i, r int, selected bool, bg tcell.Style) {
	e := v.entries[i]
	r -= v.spacer(i)
	v.rowsDrawn++
	if r < 0 {
		fill(screen, x, y, x+w, bg)
		return
	}
	rd := v.rendered(e)
	th := v.theme
	var line markdown.Line
	var gutter string
	gstyle := th.Style(themes.TokenMuted)
	head := len(rd.head) > 0 && r == 0
	if head {
		line = rd.head[0]
	} else {
		k := r - len(rd.head)
		var ok bool
		if line, ok = rd.bodyRow(k); !ok {
			line = markdown.Line{}
		}
	}
	switch e.b.Kind {
	case KindUser:
		gutter, gstyle = "▌ ", th.Style(themes.TokenAccent)
	case KindAssistant:
		gutter = "  "
	case KindReasoning:
		gutter = "│ "
		if head {
			gutter = "▾ "
			if e.b.Collapsed {
				gutter = "▸ "
			}
		}
	case KindTool:
		gutter = "│ "
		if head {
			gutter, gstyle = statusIcon(e.b.Status)+" ", v.statusStyle(e.b.Status)
		}
	case KindNotice:
		gutter = "  "
		if r == 0 {
			gutter = "· "
		}
	case KindError:
		gutter, gstyle = "  ", th.Style(themes.TokenError)
		if r == 0 {
			gutter = "✗ "
		}
	}
	firstRow := r == 0
	sel := selected && firstRow
	var selStyle tcell.Style
	if sel {
		selStyle = th.Style(themes.TokenSelection)
		gstyle = mergeSelection(gstyle, selStyle, th.NoColor)
	}
	cx := putString(screen, x, y, x+w, gutter, gstyle)
	cx = max(cx, x+gutterWidth)
	for _, seg := range line.Segments {
		st := seg.Style
		if sel {
			st = mergeSelection(st, selStyle, th.NoColor)
		}
		cx = putString(screen, cx, y, x+w, seg.Text, st)
	}
	if sel {
		bg = selStyle
	}
	fill(screen, cx, y, x+w, bg)
}

// fill writes spaces from column x up to end.
func fill(screen tcell.Screen, x, y, end int, st tcell.Style) {
	for ; x < end; x++ {
		screen.Put(x, y, " ", st)
	}
}

// outsideOnly is a screen that drops SetContent calls inside one rectangle:
// it lets tview's Box draw the border and title without filling the inner
// area, which Draw covers itself.
type outsideOnly struct {
	tcell.Screen
	x, y, w, h int
}

// SetContent forwards the call unless (x, y) is inside the rectangle.
func (s outsideOnly) SetContent(x, y int, primary rune, combining []rune, style tcell.Style) {
	if x >= s.x && x < s.x+s.w && y >= s.y && y < s.y+s.h {
		return
	}
	s.Screen.SetContent(x, y, primary, combining, style)
}

// mergeSelection draws st on the selection: the selection's background
// (or reverse video without colours).
func mergeSelection(st, sel tcell.Style, noColor bool) tcell.Style {
	if noColor {
		return st.Reverse(true)
	}
	_, bg, _ := sel.Decompose()
	return st.Background(bg)
}

// putString draws s from column x, never at or past column end, and returns
// the column after it. It steps through s by cells.Next and draws each
// cell's Glyph, the widths markdown measured the line with ("ｶﾞ" is drawn
// "ガ", two cells, where the terminal puts it).
func putString(screen tcell.Screen, x, y, end int, s string, st tcell.Style) int {
	state := -1
	for s != "" && x < end {
		var c string
		var w int
		c, s, w, state = cells.Next(s, state)
		screen.Put(x, y, cells.Glyph(c), st)
		x += w
	}
	return x
}
