package tui

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"github.com/rivo/uniseg"
)

// diffContent is what the diff pane shows: a title, a plain header (what is
// asked and why: wrapped, never cut), the text, and whether the text is a
// unified diff (coloured by line, changed words marked) or plain (a message,
// an output).
type diffContent struct {
	Key    string // changes when the pane shows something else: scroll resets
	Title  string
	Header []textPart
	Text   string
	Diff   bool
	Prose  bool // Text is a message (wrapped at spaces), not an output or code
}

// hStep is how many columns h/l scroll sideways.
const hStep = 8

// diffPane shows one diff, scrollable, each line coloured with the theme's diff
// tokens and the changed words of a changed line marked. Long lines wrap, a
// continuation mark in the gutter (contMark); with wrapping off (ActWrap) they
// are cut and h/l scroll sideways. The header says the file and its +N −M.
// Everything is laid out for the pane's width at each draw, so it works in
// any pane size. It is drawn on the event loop.
type diffPane struct {
	*tview.Box
	content func() diffContent
	theme   func(token string) tcell.Style
	key     string
	offset  int // first row shown
	hoff    int // first column shown, without wrapping
	wrap    bool
	reveal  bool // new content: scroll its first change into view at the next draw
	rows    []diffRow
	cache   rowsCache
	visible int
	width   int    // text columns at the last draw
	mark    string // appended to the title (the zoom mark)
}

// rowsCache keeps the last layout: a frame that shows the same content at
// the same width reuses it (the word diffs are not redone every frame).
type rowsCache struct {
	key, header, text string
	prose             bool
	diff, wrap        bool
	width             int
}

func newDiffPane(content func() diffContent, style func(string) tcell.Style) *diffPane {
	p := &diffPane{Box: tview.NewBox(), content: content, theme: style, wrap: true}
	p.SetBorder(true)
	return p
}

// refresh reloads the content; a new key resets the scroll position.
func (p *diffPane) refresh() diffContent {
	c := p.content()
	if c.Key != p.key {
		p.key, p.offset, p.hoff, p.reveal = c.Key, 0, 0, true
	}
	return c
}

// layout lays c out for width text columns, reusing the last layout when
// nothing changed.
func (p *diffPane) layout(c diffContent, width int) {
	k := rowsCache{c.Key, partsKey(c.Header), c.Text, c.Prose, c.Diff, p.wrap, width}
	if k == p.cache && p.rows != nil {
		return
	}
	p.cache, p.width = k, width
	p.rows = layoutRows(diffLines(c.Header, c.Text, c.Diff, c.Prose), width, p.wrap)
}

// scroll handles a navigation action, a sideways scroll or the wrap toggle.
func (p *diffPane) scroll(act Action) {
	c := p.refresh()
	p.layout(c, p.width)
	page := max(1, p.visible-1)
	switch act {
	case ActDown:
		p.offset++
	case ActUp:
		p.offset--
	case ActTop:
		p.offset = 0
	case ActBottom:
		p.offset = len(p.rows)
	case ActPageDown:
		p.offset += page
	case ActPageUp:
		p.offset -= page
	case ActLeft:
		p.hoff -= hStep
	case ActRight:
		if !p.wrap {
			p.hoff += hStep
		}
	case ActWrap:
		p.wrap, p.hoff, p.offset = !p.wrap, 0, 0
		p.layout(c, p.width)
	}
	p.clamp()
}

func (p *diffPane) clamp() {
	p.offset = max(0, min(p.offset, len(p.rows)-p.visible))
	widest := 0
	for _, r := range p.rows {
		widest = max(widest, rowWidth(r))
	}
	p.hoff = max(0, min(p.hoff, widest-p.width))
	if p.wrap {
		p.hoff = 0
	}
}

// style is a span's style: its token's, bold for a diff's file header,
// reversed for the changed words.
func (p *diffPane) style(s styledSpan) tcell.Style {
	var st tcell.Style
	if s.Token == "diff.header" {
		st = p.theme("muted").Bold(true)
	} else {
		st = p.theme(s.Token)
	}
	if s.Mark {
		st = st.Reverse(true).Bold(true)
	}
	return st
}

// title is the pane's title: for a diff, the file and +N −M first, then
// what the content is; the wrap state when it is off.
func (p *diffPane) title(c diffContent) string {
	t := " 4 Diff"
	if c.Diff {
		file, add, del := diffStats(c.Text)
		head := fmt.Sprintf("+%d −%d", add, del)
		if file != "" {
			head = file + " " + head
		}
		t += ": " + tview.Escape(head)
		if c.Title != "" {
			t += " · " + tview.Escape(c.Title)
		}
	} else {
		t += titleSuffix(c.Title)
	}
	if !p.wrap {
		t += tview.Escape(" [no wrap: h/l]")
	}
	return t + p.mark + " "
}

// Draw draws the border, the title and the visible rows: a one-column
// gutter (contMark on a wrapped line's continuation), then the text.
func (p *diffPane) Draw(screen tcell.Screen) {
	c := p.refresh()
	p.SetTitle(p.title(c))
	p.Box.DrawForSubclass(screen, p)
	x, y, width, height := p.GetInnerRect()
	p.visible = height
	if width <= 1 || height <= 0 {
		return
	}
	p.layout(c, width-1)
	if p.reveal {
		p.reveal = false
		p.offset = revealOffset(p.rows, height)
	}
	p.clamp()
	muted := p.theme("muted")
	for row := 0; row < height && p.offset+row < len(p.rows); row++ {
		r := p.rows[p.offset+row]
		if r.Cont {
			printAt(screen, x, y+row, 1, contMark, muted)
		}
		drawSpans(screen, x+1, y+row, width-1, p.hoff, r.Spans, p.style)
	}
}

// revealOffset is the first row to show so that the first change is in
// view in a pane height rows high: 0 when it already is; else from the row
// above it, or from the change itself, so that the first marked word of the
// line that replaces it shows too.
func revealOffset(rows []diffRow, height int) int {
	i := firstChange(rows)
	j := i
	for k := i + 1; i >= 0 && k < len(rows); k++ {
		if rowHas(rows[k], func(s styledSpan) bool { return s.Mark && s.Token == "diff.added" }) {
			j = k
			break
		}
	}
	switch {
	case i < 0 || j < height:
		return 0
	case i-1 >= j-height+1:
		return i - 1
	}
	return i
}

func rowHas(r diffRow, f func(styledSpan) bool) bool {
	for _, s := range r.Spans {
		if f(s) {
			return true
		}
	}
	return false
}

// firstChange is the index of the first row holding a changed word (a Mark),
// else of the first added or removed line; -1 when there is none.
func firstChange(rows []diffRow) int {
	line := -1
	for i, r := range rows {
		for _, s := range r.Spans {
			if s.Mark {
				return i
			}
			if line < 0 && (s.Token == "diff.added" || s.Token == "diff.removed") {
				line = i
			}
		}
	}
	return line
}

// drawSpans draws spans on one row from x, at most maxW cells, skipping the
// first skip cells of the text (the sideways scroll).
func drawSpans(screen tcell.Screen, x, y, maxW, skip int, spans []styledSpan, style func(styledSpan) tcell.Style) {
	used := 0
	for _, s := range spans {
		text := s.Text
		for skip > 0 && text != "" {
			cluster, rest, w, _ := uniseg.FirstGraphemeClusterInString(text, -1)
			_ = cluster
			text, skip = rest, skip-w
		}
		if text == "" || used >= maxW {
			continue
		}
		used += printAt(screen, x+used, y, maxW-used, text, style(s))
	}
}

// titleSuffix is ": title", escaped for a tview title, or "".
func titleSuffix(t string) string {
	if t == "" {
		return ""
	}
	return ": " + tview.Escape(t)
}

// approvalHint names the approval keys of km for the diff pane's header of a
// pending request ("y allow once · s allow for the session · ...").
func approvalHint(km *KeyMap) string {
	var parts []string
	for _, a := range approvalActions {
		if k := km.KeysOf(a.act); k != "" {
			parts = append(parts, k+" "+a.long)
		}
	}
	return strings.Join(parts, " · ")
}
