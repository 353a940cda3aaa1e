package tui

import (
	"fmt"
	"os"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// browserColumns are the widths of the browser's columns for an inner width:
// the fixed ones, and what the title and the directory share.
type browserColumns struct {
	icon, date, title, cwd, model, turns, tokens, cost int
}

// layoutColumns shares width between the columns: the title gets most of
// what is left, the directory the rest; on narrow screens the directory, then
// the model, are dropped.
func layoutColumns(width int) browserColumns {
	c := browserColumns{icon: 2, date: 17, model: 20, turns: 7, tokens: 8, cost: 10}
	fixed := func() int { return c.icon + c.date + c.model + c.turns + c.tokens + c.cost }
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

// drawBrowserLocked draws the sessions browser over the panes' area r: a
// filter line, a header, the sessions, and a line for hints, refusals or
// the delete confirmation.
func (w *Workbench) drawBrowserLocked(screen tcell.Screen, r rect) {
	if r.W < 20 || r.H < 6 {
		return
	}
	b := &w.browser
	rows := w.browserRowsLocked()
	sel := w.browserSelectedLocked(rows)
	box := w.browserBox
	box.SetRect(r.X, r.Y, r.W, r.H)
	title := fmt.Sprintf(" Sessions (%d) ", len(b.all))
	if b.filter != "" {
		title = fmt.Sprintf(" Sessions (%d of %d) ", len(rows), len(b.all))
	}
	box.SetTitle(title)
	box.Draw(screen)
	x, y, width, height := box.GetInnerRect()
	text, muted := w.theme.Style("text"), w.theme.Style("muted")
	for row := 0; row < height; row++ {
		fillRow(screen, x, y+row, width, text)
	}
	filter := "Filter: " + b.filter
	if b.filtering {
		filter += "▏"
	} else if b.filter == "" {
		filter += "(type to filter)"
	}
	printAt(screen, x+1, y, width-1, filter, w.theme.Style("accent"))
	c := layoutColumns(width - 1)
	w.drawBrowserRow(screen, x+1, y+1, c, [8]string{"", "updated", "title", "directory", "model", "turns", "tokens", "cost"},
		muted.Bold(true), muted.Bold(true))
	listY, listH := y+2, height-3
	b.visible = listH
	switch {
	case b.loading:
		printAt(screen, x+1, listY, width-1, "loading…", muted)
	case len(rows) == 0 && b.filter != "":
		printAt(screen, x+1, listY, width-1, "no session matches the filter", muted)
	case len(rows) == 0:
		printAt(screen, x+1, listY, width-1, "no sessions yet", muted)
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
		style, icon := text, w.sessionIconLocked(rows[i])
		if i == sel {
			style = w.theme.Style("selection")
			fillRow(screen, x, listY+row, width, style)
		}
		w.drawBrowserRow(screen, x+1, listY+row, c, w.browserCells(rows[i], icon), style, w.theme.Style("accent"))
	}
	w.drawBrowserFootLocked(screen, x+1, y+height-1, width-1, rows, sel)
}

// sessionIconLocked marks the live session (▶) and the sessions of this
// directory (●), which r can resume.
func (w *Workbench) sessionIconLocked(s sessionSummary) string {
	switch {
	case s.ID == w.liveID:
		return "▶"
	case s.Cwd != "" && s.Cwd == w.rootLocked():
		return "●"
	}
	return " "
}

// browserCells formats one session for the columns.
func (w *Workbench) browserCells(s sessionSummary, icon string) [8]string {
	title := s.Title
	if title == "" {
		title = "(no prompt)"
	}
	turns, tokens, cost := "…", "…", "…"
	if s.Stats {
		turns, tokens = fmt.Sprint(s.Turns), humanTokens(s.InputTokens+s.OutputTokens)
		cost = fmt.Sprintf("$%.4f", s.CostUSD)
		if s.CostUnknown {
			cost = "?"
		}
	}
	if s.Err != "" {
		turns, tokens, cost = "!", "!", "!"
	}
	return [8]string{icon, s.Updated.Local().Format("2006-01-02 15:04"), title, homeRelative(s.Cwd), s.Model, turns, tokens, cost}
}

// drawBrowserRow draws cells in the columns: left-aligned text, right-aligned
// numbers; the icon in its own style.
func (w *Workbench) drawBrowserRow(screen tcell.Screen, x, y int, c browserColumns, cells [8]string, style, iconStyle tcell.Style) {
	widths := [8]int{c.icon, c.date, c.title, c.cwd, c.model, c.turns, c.tokens, c.cost}
	col := x
	for i, cell := range cells {
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
		case i >= 5: // numbers: right-aligned
			cell = cutRight(cell, cw-1)
			printAt(screen, col+cw-1-textWidth(cell), y, cw-1, cell, st)
		case i == 3: // a directory: keep its end
			printAt(screen, col, y, cw-1, cutLeft(cell, cw-1), st)
		default:
			printAt(screen, col, y, cw-1, cutRight(cell, cw-1), st)
		}
		col += cw
	}
}

// drawBrowserFootLocked draws the last line: the delete confirmation, a
// status, or the keys.
func (w *Workbench) drawBrowserFootLocked(screen tcell.Screen, x, y, width int, rows []sessionSummary, sel int) {
	b := &w.browser
	switch {
	case b.confirm != "":
		what := b.confirm
		for _, s := range b.all {
			if s.ID == b.confirm && s.Title != "" {
				what = firstLine(s.Title)
			}
		}
		printAt(screen, x, y, width, "Delete session “"+what+"” and everything stored with it? y deletes, any other key keeps it",
			w.theme.Style("warning").Bold(true))
	case b.status != "":
		printAt(screen, x, y, width, b.status, w.theme.Style("warning"))
	default:
		hints := append(w.keys.HelpBar([]Context{CtxSessions}), "Esc close")
		printAt(screen, x, y, width, strings.Join(hints, "  ·  "), w.theme.Style("muted"))
	}
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
	if textWidth(s) <= w {
		return s
	}
	var out strings.Builder
	used, state := 0, -1
	for s != "" {
		var c string
		var cw int
		c, s, cw, state = uniseg.FirstGraphemeClusterInString(s, state)
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
	if textWidth(s) <= w {
		return s
	}
	var clusters []string
	var widths []int
	state := -1
	for s != "" {
		var c string
		var cw int
		c, s, cw, state = uniseg.FirstGraphemeClusterInString(s, state)
		clusters, widths = append(clusters, c), append(widths, cw)
	}
	used, i := 0, len(clusters)
	for i > 0 && used+widths[i-1] <= w-1 {
		i--
		used += widths[i]
	}
	return "…" + strings.Join(clusters[i:], "")
}
