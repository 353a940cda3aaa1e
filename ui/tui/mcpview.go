package tui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/mcp"
)

// The /mcp view: every configured MCP server with its state — connecting,
// ready (tools, prompts, resources), failed and why, disabled, or needing the
// person's approval with the exact command it would run — drawn over the
// panes. A project server (.mcp.json) is approved here with a confirm step: a
// on the server asks "approve NAME to run COMMAND?", and only a y pressed as a
// key (not in a paste's burst) once that question has been on screen for
// approvalGrace approves it; anything else takes the question back. The
// approval is recorded for the project and the server starts (Backend.ApproveMCP).
// The server list is a snapshot the pump keeps current (mcpnotices.go): the view
// redraws when a server's state changes, never on a timer.

// mcpView is the view's part of UIState.
type mcpView struct {
	open    bool
	sel     int                        // the selected server's index
	offset  int                        // first row drawn, when it scrolls
	servers map[string]mcp.ServerState // by name, as the backend last said
	// confirm is the server whose approval is being asked ("": none);
	// confirmSig and confirmAt are where and since when the question was
	// drawn (zero: not yet drawn), for approvalGrace.
	confirm    string
	confirmSig string
	confirmAt  time.Time
	busy       bool // an approval is being recorded
}

// mcpList returns the servers in name order.
func (v *mcpView) list() []mcp.ServerState {
	out := make([]mcp.ServerState, 0, len(v.servers))
	for _, s := range v.servers {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Config.Name < out[j].Config.Name })
	return out
}

// selected returns the selected server.
func (v *mcpView) selected() (mcp.ServerState, bool) {
	l := v.list()
	if len(l) == 0 {
		return mcp.ServerState{}, false
	}
	v.sel = max(0, min(v.sel, len(l)-1))
	return l[v.sel], true
}

// slashMCP is /mcp: the view.
func (w *Workbench) slashMCP([]string) bool {
	w.mcp.open, w.mcp.confirm = true, ""
	return true
}

// mcpRow is one line of the view.
type mcpRow struct {
	text  string
	style string // a theme token
	bold  bool
	sel   bool // the selected server's row
}

// mcpRows lays out the view's lines for width: per server one line (name,
// status, scope and transport), and under the selected one what it runs,
// its tools, prompts and resources, or the approval question. Pure over
// the list, for the tests.
func mcpRows(list []mcp.ServerState, sel int, confirm, approveKey string, width int) []mcpRow {
	var rows []mcpRow
	if len(list) == 0 {
		return []mcpRow{{text: "No MCP servers configured: add one with pincer mcp add, or a .mcp.json in the project (README, \"MCP servers\").", style: "muted"}}
	}
	nameW := mcpNameWidth(list, width)
	for i, st := range list {
		c := st.Config
		mark := "  "
		if i == sel {
			mark = "▸ "
		}
		name := cutCells(c.Name, nameW)
		head := mark + name + strings.Repeat(" ", nameW-textWidth(name)) + "  " + mcpStatusText(st)
		where := fmt.Sprintf("%s · %s", c.Scope, c.Transport)
		if c.Plugin != "" {
			where = "plugin " + c.Plugin + " · " + string(c.Transport)
		} else if c.Transport == "" {
			where = string(c.Scope)
		}
		if pad := width - textWidth(head) - textWidth(where); pad >= 2 {
			head += strings.Repeat(" ", pad) + where
		} else {
			head = cutCells(head, width)
		}
		rows = append(rows, mcpRow{text: head, style: mcpStatusStyle(st.Status), bold: i == sel, sel: i == sel})
		if i != sel {
			continue
		}
		indent := "      "
		add := func(style, text string) {
			for _, line := range wrapCells(text, max(width-len(indent), 10)) {
				rows = append(rows, mcpRow{text: indent + line, style: style})
			}
		}
		if c.Command != "" {
			add("text", "runs: "+c.CommandLine())
		} else if c.URL != "" {
			add("text", "url: "+c.CommandLine())
		}
		for _, w := range c.Warnings() {
			add("warning", "warning: "+w)
		}
		if c.File != "" {
			where := c.File
			if c.Line > 0 {
				where = fmt.Sprintf("%s:%d", where, c.Line)
			}
			add("muted", "from "+where)
		}
		switch st.Status {
		case mcp.StatusNeedsApproval:
			if confirm == c.Name {
				add("warning", "Approve "+c.Name+" for this project? It will run the command above, outside the sandbox, now and whenever pincer opens here (until the entry changes).")
				add("warning", "y approves · n or Esc takes it back")
			} else {
				add("warning", "not started: a project server runs only once you approve it ("+approveKey+" approves)")
			}
		case mcp.StatusFailed:
			add("error", "failed: "+c.Redact(st.Reason))
		case mcp.StatusDisabled:
			add("muted", st.Reason)
		case mcp.StatusReady:
			if len(st.Tools) > 0 {
				add("accent", "tools: "+strings.Join(st.Tools, ", "))
			}
			if len(st.Prompts) > 0 {
				var names []string
				for _, p := range st.Prompts {
					names = append(names, "/mcp__"+mcp.Sanitize(c.Name)+"__"+mcp.Sanitize(p.Name))
				}
				add("accent", "prompts: "+strings.Join(names, ", "))
			}
			if len(st.Resources) > 0 {
				var uris []string
				for _, r := range st.Resources {
					uris = append(uris, r.URI)
				}
				add("accent", "resources: "+strings.Join(uris, ", "))
			}
			if st.Instructions != "" {
				add("muted", "instructions: "+firstLine(st.Instructions))
			}
		}
	}
	return rows
}

// mcpNameWidth is the name column's width: the widest name, at most half of
// width (a longer name is cut with "…"), at least 4 cells.
func mcpNameWidth(list []mcp.ServerState, width int) int {
	w := 4
	for _, st := range list {
		w = max(w, textWidth(st.Config.Name))
	}
	return min(w, max(4, width/2))
}

// cutCells is s cut to width cells, its last cell "…" when it was cut.
func cutCells(s string, width int) string {
	if textWidth(s) <= width {
		return s
	}
	if width <= 0 {
		return ""
	}
	var b strings.Builder
	used := 0
	for _, r := range s {
		rw := textWidth(string(r))
		if used+rw > width-1 {
			break
		}
		b.WriteRune(r)
		used += rw
	}
	return b.String() + "…"
}

// mcpKeyBar is the key bar while /mcp is open: its own keys, or the
// approval question's.
func mcpKeyBar(confirming bool) []string {
	if confirming {
		return []string{"y approves", "n or Esc takes it back"}
	}
	return []string{"j/k select", "a approve a project server", "Esc close"}
}

// mcpStatusText is a state in a few words: "ready · 14 tools · 4 prompts".
func mcpStatusText(st mcp.ServerState) string {
	switch st.Status {
	case mcp.StatusReady:
		s := "ready · " + countOf(len(st.Tools), "tool")
		if n := len(st.Prompts); n > 0 {
			s += " · " + countOf(n, "prompt")
		}
		if n := len(st.Resources); n > 0 {
			s += " · " + countOf(n, "resource")
		}
		return s
	case mcp.StatusConnecting:
		return "connecting…"
	case mcp.StatusFailed:
		return "failed"
	}
	return string(st.Status)
}

// countOf is "1 tool", "3 tools".
func countOf(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// mcpStatusStyle is the theme token of a status.
func mcpStatusStyle(s mcp.Status) string {
	switch s {
	case mcp.StatusReady:
		return "text"
	case mcp.StatusFailed:
		return "error"
	case mcp.StatusNeedsApproval:
		return "warning"
	}
	return "muted"
}

// drawMCPView draws the view over the panes (r: the main area).
func (w *Workbench) drawMCPView(screen tcell.Screen, r rect) {
	if r.W < 10 || r.H < 3 {
		return
	}
	text := w.theme.Style("text")
	for y := r.Y; y < r.Y+r.H; y++ {
		fillRow(screen, r.X, y, r.W, text)
	}
	list := w.mcp.list()
	w.mcp.sel = max(0, min(w.mcp.sel, len(list)-1))
	head := fmt.Sprintf("MCP servers (%d) — j/k select · a approves a project server · Esc closes", len(list))
	printAt(screen, r.X+2, r.Y, r.W-4, cutCells(head, r.W-4), w.theme.Style("accent").Bold(true))
	rows := mcpViewRows(list, w.mcpWarnings(), w.mcp.sel, w.mcp.confirm, "a", r.W-4)
	height := r.H - 2
	// Keep the selected server's row and the rows under it in view.
	selAt := 0
	for i, row := range rows {
		if row.sel {
			selAt = i
		}
	}
	end := selAt + 1
	for end < len(rows) && !rowIsServer(rows[end]) {
		end++
	}
	if w.mcp.offset > selAt {
		w.mcp.offset = selAt
	}
	if end-w.mcp.offset > height {
		w.mcp.offset = min(selAt, end-height)
	}
	w.mcp.offset = max(0, min(w.mcp.offset, max(0, len(rows)-height)))
	confirmDrawn := false
	for i := w.mcp.offset; i < len(rows) && i-w.mcp.offset < height; i++ {
		row := rows[i]
		st := w.theme.Style(row.style)
		if row.bold {
			st = st.Bold(true)
		}
		printAt(screen, r.X+2, r.Y+2+i-w.mcp.offset, r.W-4, cutCells(row.text, r.W-4), st)
		if w.mcp.confirm != "" && strings.Contains(row.text, "y approves") {
			confirmDrawn = true
		}
	}
	w.noteMCPConfirm(confirmDrawn, fmt.Sprintf("%v %d", r, w.mcp.offset))
}

// rowIsServer reports whether a row is a server's first line.
func rowIsServer(r mcpRow) bool { return !strings.HasPrefix(r.text, "      ") }

// noteMCPConfirm records, after a frame, whether the approval question was on
// screen and where (sig): a question that moved, or was not drawn, starts its
// grace again.
func (w *Workbench) noteMCPConfirm(drawn bool, sig string) {
	switch {
	case w.mcp.confirm == "" || !drawn:
		w.mcp.confirmAt, w.mcp.confirmSig = time.Time{}, ""
	case w.mcp.confirmSig != sig || w.mcp.confirmAt.IsZero():
		w.mcp.confirmAt, w.mcp.confirmSig = w.now(), sig
	}
}
