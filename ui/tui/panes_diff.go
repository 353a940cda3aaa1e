package tui

import (
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// diffContent is what the diff pane shows: a title, the text, and whether the
// text is a unified diff (coloured by line) or plain (a message, an output).
type diffContent struct {
	Key   string // changes when the pane shows something else: scroll resets
	Title string
	Text  string
	Diff  bool
}

// diffPane shows one diff, scrollable, each line coloured with the theme's diff
// tokens. It is drawn on the event loop.
type diffPane struct {
	*tview.Box
	content func() diffContent
	theme   func(token string) tcell.Style
	key     string
	offset  int
	lines   []string
	visible int
	mark    string // appended to the title (the zoom mark)
}

func newDiffPane(content func() diffContent, style func(string) tcell.Style) *diffPane {
	p := &diffPane{Box: tview.NewBox(), content: content, theme: style}
	p.SetBorder(true)
	return p
}

// refresh reloads the content; a new key resets the scroll position.
func (p *diffPane) refresh() diffContent {
	c := p.content()
	if c.Key != p.key {
		p.key, p.offset = c.Key, 0
	}
	p.lines = strings.Split(strings.TrimRight(c.Text, "\n"), "\n")
	return c
}

// scroll handles a navigation action.
func (p *diffPane) scroll(act Action) {
	p.refresh()
	page := max(1, p.visible-1)
	switch act {
	case ActDown:
		p.offset++
	case ActUp:
		p.offset--
	case ActTop:
		p.offset = 0
	case ActBottom:
		p.offset = len(p.lines)
	case ActPageDown:
		p.offset += page
	case ActPageUp:
		p.offset -= page
	}
	p.clamp()
}

func (p *diffPane) clamp() {
	p.offset = max(0, min(p.offset, len(p.lines)-p.visible))
}

// lineStyle colours one line of a unified diff.
func (p *diffPane) lineStyle(line string, diff bool) tcell.Style {
	if !diff {
		return p.theme("text")
	}
	switch {
	case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"):
		return p.theme("muted").Bold(true)
	case strings.HasPrefix(line, "+"):
		return p.theme("diff.added")
	case strings.HasPrefix(line, "-"):
		return p.theme("diff.removed")
	case strings.HasPrefix(line, "@@"):
		return p.theme("accent")
	case strings.HasPrefix(line, `\`):
		return p.theme("muted")
	}
	return p.theme("diff.context")
}

// Draw draws the border, the title and the visible lines (no wrapping: long
// lines are cut).
func (p *diffPane) Draw(screen tcell.Screen) {
	c := p.refresh()
	p.SetTitle(" 4 Diff" + titleSuffix(c.Title) + p.mark + " ")
	p.Box.DrawForSubclass(screen, p)
	x, y, width, height := p.GetInnerRect()
	p.visible = height
	if width <= 0 || height <= 0 {
		return
	}
	p.clamp()
	for row := 0; row < height && p.offset+row < len(p.lines); row++ {
		line := p.lines[p.offset+row]
		printAt(screen, x+1, y+row, width-1, strings.ReplaceAll(line, "\t", "    "), p.lineStyle(line, c.Diff))
	}
}

// titleSuffix is ": title", escaped for a tview title, or "".
func titleSuffix(t string) string {
	if t == "" {
		return ""
	}
	return ": " + tview.Escape(t)
}
