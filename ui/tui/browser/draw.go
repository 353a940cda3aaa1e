package browser

import (
	"fmt"
	"os"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"pincer/ui/tui/internal/cells"
)

// View is what Draw needs of the workbench: the live session and the
// workspace root (for the row marks), the theme's styles, the key hints of the
// foot line, and how token counts are written.
type View struct {
	LiveID, Root string
	Style        func(token string) tcell.Style
	Hints        []string
	Tokens       func(n int64) string
}

// browserColumns are the widths of the browser's columns for an inner width:
// the fixed ones, and what the title and the directory share.
type browserColumns struct {
	icon, date, title, cwd, model, status, turns, tokens, cost int
}

// layoutColumns shares width between the columns: the title gets most of
// what is left, the directory the rest; on narrow screens the directory, then
// the model, are dropped.
func layoutColumns(width int) browserColumns {
	c := browserColumns{icon: 2, date: 17, model: 20, status: 12, turns: 7, tokens: 8, cost: 10}
	fixed := func() int { return c.icon + c.date + c.model + c.status + c.turns + c.tokens + c.cost }
	if width-fixed() < 40 {
		c.model = 0
	}
	rest := width - fixed()
	if rest >= 50 {
		c.cwd = rest * 2 / 5
	}
	c.title = max(rest-c.cwd, 0)
	return c
}

// Draw draws the browser in box over the area (x, y, w, h): a filter line, a
// header, the sessions, and a line for hints, refusals or the delete
// confirmation. It keeps the selection in view.
func (b *State) Draw(screen tcell.Screen, box *tview.Box, x0, y0, w, h int, v View) {
	if w < 20 || h < 6 {
		return
	}
	rows := b.Rows()
	sel := b.Selected(rows)
	box.SetRect(x0, y0, w, h)
	title := fmt.Sprintf(" Sessions (%d) ", len(b.All))
	if b.Filter != "" {
		title = fmt.Sprintf(" Sessions (%d of %d) ", len(rows), len(b.All))
	}
	box.SetTitle(title)
	box.Draw(screen)
	x, y, width, height := box.GetInnerRect()
	text, muted := v.Style("text"), v.Style("muted")
	for row := 0; row < height; row++ {
		cells.Fill(screen, x, y+row, width, text)
	}
	filter := "Filter: " + b.Filter
	if b.Filtering {
		filter += "▏"
	} else if b.Filter == "" {
		filter += "(type to filter)"
	}
	cells.Print(screen, x+1, y, width-1, filter, v.Style("accent"))
	c := layoutColumns(width - 1)
	drawRow(screen, x+1, y+1, c, [9]string{"", "updated", "title", "directory", "model", "status", "turns", "tokens", "cost"},
		muted.Bold(true), muted.Bold(true))
	items, sep := b.footItems(v)
	foot := wrapItems(items, sep, width-1)
	legend := wrapItems(legendItems, "  ", width-1)
	listY, listH := y+2, max(height-2-len(legend)-len(foot), 1)
	b.visible = listH
	switch {
	case b.Loading:
		cells.Print(screen, x+1, listY, width-1, "loading…", muted)
	case len(rows) == 0 && b.Filter != "":
		cells.Print(screen, x+1, listY, width-1, "no session matches the filter", muted)
	case len(rows) == 0:
		cells.Print(screen, x+1, listY, width-1, "no sessions yet", muted)
	}
	if sel >= 0 {
		if sel < b.offset {
			b.offset = sel
		}
		if sel >= b.offset+listH {
			b.offset = sel - listH + 1
		}
		b.offset = max(0, min(b.offset, len(rows)-listH))
	}
	for row := 0; row < listH && b.offset+row < len(rows); row++ {
		i := b.offset + row
		style, icon := text, v.icon(rows[i])
		if i == sel {
			style = v.Style("selection")
			cells.Fill(screen, x, listY+row, width, style)
		}
		drawRow(screen, x+1, listY+row, c, v.cells(rows[i], icon), style, v.Style("accent"))
	}
	footY := y + height - len(foot)
	for i, l := range legend {
		if ly := footY - len(legend) + i; ly > listY {
			cells.Print(screen, x+1, ly, width-1, l, muted)
		}
	}
	for i, l := range foot {
		cells.Print(screen, x+1, footY+i, width-1, l, b.footStyle(v))
	}
}

// legendItems are the pieces of Legend, kept whole when it wraps.
var legendItems = strings.Split(Legend, "  ")

// wrapItems packs items (each a piece of text kept whole, joined by sep on a
// line) into lines of at most width cells, greedily, in order; an item wider
// than width gets a line of its own (where Print cuts it).
func wrapItems(items []string, sep string, width int) []string {
	var lines []string
	cur := ""
	for _, it := range items {
		switch {
		case cur == "":
			cur = it
		case cells.Width(cur)+cells.Width(sep)+cells.Width(it) <= width:
			cur += sep + it
		default:
			lines = append(lines, cur)
			cur = it
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// Legend explains the browser's marks, on the line above its keys.
const Legend = "▶ this workbench's session  ● this directory's (resume here)  " +
	"running: a process holds it now  interrupted: its process ended mid-turn  +: some events unreadable"

// icon marks the live session (▶) and the sessions of this directory (●),
// which r can resume.
func (v View) icon(s Summary) string {
	switch {
	case s.ID == v.LiveID:
		return "▶"
	case s.Cwd != "" && s.Cwd == v.Root:
		return "●"
	}
	return " "
}

// cells formats one session for the columns.
func (v View) cells(s Summary, icon string) [9]string {
	title := s.Title
	switch {
	case title == "" && s.ID == v.LiveID: // the only one listed without a prompt
		title = "(this workbench)"
	case title == "":
		title = "(no prompt)"
	}
	title = treeTitle(s, title)
	turns, tokens, cost := "…", "…", "…"
	if s.Stats {
		turns, tokens = fmt.Sprint(s.Turns), v.Tokens(s.InputTokens+s.OutputTokens)
		cost = fmt.Sprintf("$%.4f", s.CostUSD)
		if s.CostUnknown {
			cost = "?"
		}
		if s.Unreadable > 0 { // some events did not read: at least these figures
			turns, tokens, cost = turns+"+", tokens+"+", cost+"+"
		}
	}
	if s.Err != "" {
		turns, tokens, cost = "!", "!", "!"
	}
	status := s.Status
	if status == "" {
		status = "idle"
	}
	return [9]string{icon, s.Updated.Local().Format("2006-01-02 15:04"), title, homeRelative(s.Cwd), s.Model, status, turns, tokens, cost}
}

// drawRow draws a row's texts in the columns: left-aligned text,
// right-aligned numbers; the icon in its own style.
func drawRow(screen tcell.Screen, x, y int, c browserColumns, texts [9]string, style, iconStyle tcell.Style) {
	widths := [9]int{c.icon, c.date, c.title, c.cwd, c.model, c.status, c.turns, c.tokens, c.cost}
	col := x
	for i, cell := range texts {
		cw := widths[i]
		if cw <= 0 {
			continue
		}
		st := style
		if i == 0 {
			_, bg, _ := style.Decompose()
			st = iconStyle.Background(bg)
		}
		switch {
		case i >= 6: // numbers: right-aligned
			cell = cutRight(cell, cw-1)
			cells.Print(screen, col+cw-1-cells.Width(cell), y, cw-1, cell, st)
		case i == 3: // a directory: keep its end
			cells.Print(screen, col, y, cw-1, cutLeft(cell, cw-1), st)
		default:
			cells.Print(screen, col, y, cw-1, cutRight(cell, cw-1), st)
		}
		col += cw
	}
}

// footItems are the pieces of the foot (the delete confirmation, a status,
// or the keys), each kept whole when the foot wraps, and what joins them.
func (b *State) footItems(v View) ([]string, string) {
	switch {
	case b.Confirm != "":
		what := b.Confirm
		for _, s := range b.All {
			if s.ID == b.Confirm && s.Title != "" {
				what = cells.FirstLine(s.Title)
			}
		}
		return []string{"Delete session “" + what + "”", "and everything stored with it?", "y deletes,", "any other key keeps it"}, " "
	case b.Status != "":
		return []string{b.Status}, " "
	}
	return v.Hints, "  ·  "
}

// footStyle is the style of the foot's lines.
func (b *State) footStyle(v View) tcell.Style {
	switch {
	case b.Confirm != "":
		return v.Style("warning").Bold(true)
	case b.Status != "":
		return v.Style("warning")
	}
	return v.Style("muted")
}

// homeRelative writes a path under the home directory as ~/...
func homeRelative(p string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" || home == "/" {
		return p
	}
	if p == home {
		return "~"
	}
	if strings.HasPrefix(p, home+"/") {
		return "~" + p[len(home):]
	}
	return p
}

// cutRight cuts s to at most w cells, ending it with "…" when cut.
func cutRight(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if cells.Width(s) <= w {
		return s
	}
	var out strings.Builder
	used, state := 0, -1
	for s != "" {
		var c string
		var cw int
		c, s, cw, state = cells.Next(s, state)
		if used+cw > w-1 {
			break
		}
		out.WriteString(c)
		used += cw
	}
	return out.String() + "…"
}

// cutLeft cuts s to at most w cells from the left, starting it with "…" when
// cut (a path keeps its last components).
func cutLeft(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if cells.Width(s) <= w {
		return s
	}
	var clusters []string
	var widths []int
	state := -1
	for s != "" {
		var c string
		var cw int
		c, s, cw, state = cells.Next(s, state)
		clusters, widths = append(clusters, c), append(widths, cw)
	}
	used, i := 0, len(clusters)
	for i > 0 && used+widths[i-1] <= w-1 {
		i--
		used += widths[i]
	}
	return "…" + strings.Join(clusters[i:], "")
}

// treeTitle marks a child session's title with its depth and type
// ("└ [Explore] find the loader") and a parent's with its children's count,
// collapsed or expanded ("fix it  ▸ 2 subagents").
func treeTitle(s Summary, title string) string {
	if s.AgentType != "" || s.Depth > 0 {
		label := s.AgentType
		if label == "" {
			label = "subagent"
		}
		title = "[" + label + "] " + title
	}
	if s.Depth > 0 {
		title = strings.Repeat("  ", s.Depth-1) + "└ " + title
	}
	switch {
	case s.Kids == 1:
		title += "  ⊕ 1 subagent"
	case s.Kids > 1:
		title += fmt.Sprintf("  ⊕ %d subagents", s.Kids)
	}
	return title
}
