package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/app"
	"pincer/core/worktree"
	"pincer/ui/termtext"
)

// The /worktrees view: the git worktrees pincer made for this repository
// (core/worktree, through the Backend: app.Backend.Worktrees), each with its
// branch, what it changed against where it started (the diff stat) and the
// session that made it, drawn over the panes. m merges the selected one into
// the main checkout's branch and d discards it (checkout and branch, with
// whatever was not merged), each after a confirm step as /mcp's approval: the
// question names what will happen, and only a y pressed as a key (not in a
// paste's burst) once it has been on screen for approvalGrace does it;
// anything else takes it back. The list is loaded off the event loop when the
// view opens, after each action and on r; nothing redraws on a timer.

// worktreeBackend is the part of a Backend that keeps worktrees
// (app.Backend has it; a backend without it lists none).
type worktreeBackend interface {
	Worktrees(ctx context.Context) ([]app.WorktreeInfo, error)
	MergeWorktree(ctx context.Context, name string, allowProtected bool) (worktree.MergeResult, error)
	RemoveWorktree(ctx context.Context, name string, force bool) error
}

// worktreesView is the view's part of UIState.
type worktreesView struct {
	open    bool
	loading bool   // a listing is under way
	err     string // why the last listing failed
	list    []app.WorktreeInfo
	sel     int
	// confirm is the action asked ("merge" or "discard", "": none) on
	// confirmName; confirmAt and confirmSig are when and where the question
	// was first drawn (zero: not yet), for approvalGrace.
	confirm, confirmName string
	confirmAt            time.Time
	confirmSig           string
	busy                 bool // a merge or discard runs
}

// slashWorktrees is /worktrees: the view.
func (w *Workbench) slashWorktrees([]string) bool {
	w.wt.open, w.wt.confirm, w.wt.sel = true, "", 0
	w.loadWorktrees()
	return true
}

// loadWorktrees lists the worktrees off the event loop and posts the list.
func (w *Workbench) loadWorktrees() {
	wb, ok := w.be.(worktreeBackend)
	if !ok || w.be == nil {
		w.wt.list, w.wt.err = nil, "the store is still opening: press r in a moment"
		return
	}
	w.wt.loading = true
	go func() {
		list, err := wb.Worktrees(context.Background())
		w.pump.post(func() {
			w.wt.loading, w.wt.list, w.wt.err = false, list, ""
			if err != nil {
				w.wt.err = err.Error()
			}
		})
	}()
}

// selectedWorktree returns the selected worktree.
func (v *worktreesView) selected() (app.WorktreeInfo, bool) {
	if len(v.list) == 0 {
		return app.WorktreeInfo{}, false
	}
	v.sel = max(0, min(v.sel, len(v.list)-1))
	return v.list[v.sel], true
}

// worktreeRows lays out the view's lines for width (pure, for the tests):
// per worktree one line — name, branch, diff stat, session — and under the
// selected one its path, base commit, the files it changed and, when asked,
// the question. Text from the repository (names, paths, titles) is one
// clean line each (termtext.Line).
func worktreeRows(list []app.WorktreeInfo, sel int, confirm, errText string, loading bool, width int) []mcpRow {
	switch {
	case errText != "":
		return []mcpRow{{text: "worktrees: " + termtext.Line(errText), style: "error"}}
	case loading && len(list) == 0:
		return []mcpRow{{text: "listing worktrees…", style: "muted"}}
	case len(list) == 0:
		return []mcpRow{{text: "No worktrees for this repository: start a session in one with pincer --worktree NAME.", style: "muted"}}
	}
	nameW := 4
	for _, wt := range list {
		nameW = max(nameW, textWidth(termtext.Line(wt.Name)))
	}
	nameW = min(nameW, max(4, width/3))
	var rows []mcpRow
	for i, wt := range list {
		mark := "  "
		if i == sel {
			mark = "▸ "
		}
		name := cutCells(termtext.Line(wt.Name), nameW)
		stat := wt.Changes()
		style := "text"
		switch {
		case wt.Missing:
			style = "warning"
		case wt.StatErr != "":
			stat, style = "diff stat failed", "error"
		case wt.Merged, wt.Stat.Empty() && len(wt.MergeProtected) == 0:
			style = "muted"
		}
		session := "no session"
		if wt.Session != "" {
			session = "session " + shortID(wt.Session)
		}
		head := fmt.Sprintf("%s%s%s  %s  %s  %s", mark, name, strings.Repeat(" ", nameW-textWidth(name)), termtext.Line(wt.Branch), stat, session)
		rows = append(rows, mcpRow{text: cutCells(head, width), style: style, bold: i == sel, sel: i == sel})
		if i != sel {
			continue
		}
		indent := "      "
		add := func(style, text string) {
			for _, line := range wrapCells(text, max(width-len(indent), 10)) {
				rows = append(rows, mcpRow{text: indent + line, style: style})
			}
		}
		add("muted", "path: "+termtext.Line(wt.Path))
		add("muted", "from "+short12(wt.Base)+" of "+termtext.Line(wt.Repo)+", made "+wt.Created.Local().Format("2006-01-02 15:04"))
		if wt.Title != "" {
			add("muted", fmt.Sprintf("made by %s: %s", shortID(wt.Session), termtext.Line(wt.Title)))
		}
		if wt.StatErr != "" && !wt.Missing {
			add("error", termtext.Line(wt.StatErr))
		}
		for j, f := range wt.Stat.Files {
			if j == 8 {
				add("muted", fmt.Sprintf("… and %d more", len(wt.Stat.Files)-8))
				break
			}
			line := fmt.Sprintf("%s | +%d -%d", termtext.Line(f.Path), f.Added, f.Deleted)
			if f.Binary {
				line = termtext.Line(f.Path) + " | binary"
			}
			if f.Untracked {
				line += " (new, not committed)"
			}
			add("text", line)
		}
		if wt.Merged {
			add("muted", "merged: the main checkout has all of it (d discards the worktree and its branch)")
		} else if wt.Stat.Empty() && len(wt.MergeProtected) == 0 && !wt.Missing && wt.StatErr == "" {
			add("muted", "empty: nothing was changed or committed here (d discards it)")
		}
		if p := wt.Protected(); len(p) > 0 {
			add("warning", "changes protected files: "+termtext.Line(strings.Join(p, ", "))+" (settings, hooks, MCP servers or instructions the main checkout's next session reads)")
		}
		switch confirm {
		case "merge":
			add("warning", "Merge "+termtext.Line(wt.Branch)+" into the main checkout's branch? Its uncommitted work is committed on the branch first; a conflict is aborted and named.")
			add("warning", "y merges · n or Esc takes it back")
		case "discard":
			add("warning", "Discard worktree "+termtext.Line(wt.Name)+"? Its checkout and the branch "+termtext.Line(wt.Branch)+" are deleted, with "+stat+" and any commits not merged.")
			add("warning", "y discards · n or Esc takes it back")
		}
	}
	return rows
}

// short12 is a commit hash cut to 12 characters.
func short12(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// worktreesKeyBar is the key bar while /worktrees is open.
func worktreesKeyBar(confirming bool) []string {
	if confirming {
		return []string{"y confirms", "n or Esc takes it back"}
	}
	return []string{"j/k select", "m merge", "d discard", "r reload", "Esc close"}
}

// drawWorktreesView draws the view over the panes (r: the main area).
func (w *Workbench) drawWorktreesView(screen tcell.Screen, r rect) {
	if r.W < 10 || r.H < 3 {
		return
	}
	text := w.theme.Style("text")
	for y := r.Y; y < r.Y+r.H; y++ {
		fillRow(screen, r.X, y, r.W, text)
	}
	w.wt.sel = max(0, min(w.wt.sel, len(w.wt.list)-1))
	head := fmt.Sprintf("Worktrees (%d) — j/k select · m merges · d discards · r reloads · Esc closes", len(w.wt.list))
	printAt(screen, r.X+2, r.Y, r.W-4, cutCells(head, r.W-4), w.theme.Style("accent").Bold(true))
	rows := worktreeRows(w.wt.list, w.wt.sel, w.wt.confirm, w.wt.err, w.wt.loading, r.W-4)
	height := r.H - 2
	selAt := 0
	for i, row := range rows {
		if row.sel {
			selAt = i
		}
	}
	offset := 0
	if end := len(rows); end > height {
		offset = max(0, min(selAt, end-height))
	}
	drawn := false
	for i := offset; i < len(rows) && i-offset < height; i++ {
		row := rows[i]
		st := w.theme.Style(row.style)
		if row.bold {
			st = st.Bold(true)
		}
		printAt(screen, r.X+2, r.Y+2+i-offset, r.W-4, cutCells(row.text, r.W-4), st)
		if w.wt.confirm != "" && strings.Contains(row.text, "· n or Esc takes it back") {
			drawn = true
		}
	}
	sig := fmt.Sprintf("%v %d", r, offset)
	switch {
	case w.wt.confirm == "" || !drawn:
		w.wt.confirmAt, w.wt.confirmSig = time.Time{}, ""
	case w.wt.confirmSig != sig || w.wt.confirmAt.IsZero():
		w.wt.confirmAt, w.wt.confirmSig = w.now(), sig
	}
}
