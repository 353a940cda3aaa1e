package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/memory"
	"pincer/ui/termtext"
)

// The /memory and /skills view, drawn over the panes. /memory lists the
// memory files (the user's, then this project's: Backend.Memories) and the
// candidates still pending; Enter or e opens the selected memory's text in
// the editor (candidate_editor.go), whose Ctrl+S saves it as an update
// candidate accepted in the same step (app.Backend.EditMemory: the Manager's
// one writer and the audit trail); d deletes it the same way
// (app.Backend.ForgetMemory) after a confirm step like /worktrees' (y as a
// keypress, not in a burst, once the question was on screen for
// approvalGrace). /skills lists the catalog's skills with where a learned
// one came from (its source:) and the pending skill candidates: a skill
// accepted now reaches the next session's catalog, not this one's. Pending
// candidates are answered in the approval queue. The lists are loaded off
// the event loop when the view opens, after each change and on r.

// memoryEditor is the part of a Backend that edits and deletes a memory in
// one step (app.Backend has it).
type memoryEditor interface {
	EditMemory(ctx context.Context, sessionID string, e memory.Entry, text string) (memory.Candidate, error)
	ForgetMemory(ctx context.Context, sessionID string, e memory.Entry) (memory.Candidate, error)
}

// memoryView is the view's part of UIState.
type memoryView struct {
	open    bool
	skills  bool // /skills, else /memory
	loading bool
	err     string
	entries []memory.Entry
	pending []memory.Candidate
	sel     int
	// confirm is a deletion asked of entry confirmName; confirmAt when the
	// question was first drawn (zero: not yet), for approvalGrace.
	confirm     bool
	confirmName string
	confirmAt   time.Time
}

// slashMemory is /memory: the view; /memory add TEXT proposes TEXT as a
// memory candidate (it waits in the approval queue).
func (w *Workbench) slashMemory(args []string) bool {
	if len(args) > 0 && args[0] == "add" {
		return w.memoryAdd(afterWords(w.slashLine, 2))
	}
	if len(args) > 0 {
		w.Notify("warning", "usage: /memory (list, edit, delete) or /memory add TEXT")
		return false
	}
	w.mem = memoryView{open: true}
	w.loadMemory()
	return true
}

// slashSkills is /skills: the skills and the pending skill candidates.
func (w *Workbench) slashSkills([]string) bool {
	w.mem = memoryView{open: true, skills: true}
	w.loadMemory()
	return true
}

// memoryAdd proposes text as a memory candidate of the shown session.
func (w *Workbench) memoryAdd(text string) bool {
	mb, ok := w.memoryOf()
	if !ok {
		return false
	}
	if strings.TrimSpace(text) == "" {
		w.Notify("warning", "usage: /memory add TEXT")
		return false
	}
	sessionID := w.liveID
	w.goBackground(func() {
		c, err := mb.ProposeMemory(w.ctx, sessionID, text)
		if err != nil {
			w.Notify("error", "memory: "+err.Error())
			return
		}
		w.Notify("info", "proposed "+c.Type+" memory “"+c.Name+"”: it waits in the approval queue (y accepts, e edits, n rejects)")
	})
	return true
}

// loadMemory lists the view's memories (or skills) and pending candidates
// off the event loop.
func (w *Workbench) loadMemory() {
	mb, ok := w.be.(memoryBackend)
	if !ok || w.be == nil {
		w.mem.err = "the store is still opening: press r in a moment"
		return
	}
	w.mem.loading = true
	skills := w.mem.skills
	w.goBackground(func() {
		var entries []memory.Entry
		var err error
		if !skills {
			entries, err = mb.Memories(w.ctx)
		}
		f := memory.Filter{Status: memory.StatusPending, Kind: memory.KindMemory}
		if skills {
			f.Kind = memory.KindSkill
		}
		pending, perr := mb.Candidates(w.ctx, f)
		w.pump.post(func() {
			w.mem.loading, w.mem.entries, w.mem.pending, w.mem.err = false, entries, pending, ""
			if err = errorsJoin(err, perr); err != nil {
				w.mem.err = err.Error()
			}
		})
	})
}

// errorsJoin is the first of two errors.
func errorsJoin(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// memoryRows lays out /memory's lines for width (pure, for the tests): a
// memory a line (scope, type, name, description), under the selected one its
// path and, when asked, the deletion's question; then the pending
// candidates.
func memoryRows(v memoryView, width int) []mcpRow {
	if v.err != "" {
		return []mcpRow{{text: "memory: " + termtext.Line(v.err), style: "error"}}
	}
	if v.loading && len(v.entries) == 0 {
		return []mcpRow{{text: "reading memory…", style: "muted"}}
	}
	var rows []mcpRow
	if len(v.entries) == 0 {
		rows = append(rows, mcpRow{text: "No memories yet: /memory add TEXT proposes one (it waits in the approval queue).", style: "muted"})
	}
	if len(v.entries) > 0 { // the columns' names: a scope and a type may be the same word ("project")
		rows = append(rows, mcpRow{text: cutCells(fmt.Sprintf("  %-7s %-9s %s", "scope", "type", "name — description"), width), style: "muted"})
	}
	for i, e := range v.entries {
		mark, name := "  ", termtext.Line(e.File.Name)
		if i == v.sel {
			mark = "▸ "
		}
		line := fmt.Sprintf("%s%-7s %-9s %s — %s", mark, e.Scope, e.File.Type, name, termtext.Line(e.File.Description))
		style := "text"
		if e.Err != nil {
			line, style = mark+e.Scope+" "+termtext.Line(e.Path)+": "+termtext.Line(e.Err.Error()), "error"
		}
		rows = append(rows, mcpRow{text: cutCells(line, width), style: style, bold: i == v.sel, sel: i == v.sel})
		if i != v.sel {
			continue
		}
		rows = append(rows, mcpRow{text: cutCells("      "+termtext.Line(e.Path), width), style: "muted"})
		if v.confirm {
			rows = append(rows, mcpRow{text: cutCells("      Delete memory “"+name+"” (the file and its MEMORY.md line)? y deletes · n or Esc takes it back", width), style: "warning"})
		}
	}
	return append(rows, pendingRows(v.pending, width)...)
}

// skillRows lays out /skills' lines for width (pure): a skill a line (name,
// origin, description) with a learned one's source, then the pending skill
// candidates.
func skillRows(cmds []skillRow, pending []memory.Candidate, width int) []mcpRow {
	var rows []mcpRow
	if len(cmds) == 0 {
		rows = append(rows, mcpRow{text: "No skills in this session's catalog.", style: "muted"})
	}
	for _, c := range cmds {
		line := "  " + termtext.Line(c.name) + "  (" + termtext.Line(c.origin) + ")  " + termtext.Line(c.description)
		rows = append(rows, mcpRow{text: cutCells(line, width), style: "text"})
		if c.source != "" {
			rows = append(rows, mcpRow{text: cutCells("      source: "+termtext.Line(c.source), width), style: "muted"})
		}
	}
	return append(rows, pendingRows(pending, width)...)
}

// skillRow is a skill as /skills lists it.
type skillRow struct{ name, origin, description, source string }

// pendingRows are the pending candidates' lines.
func pendingRows(pending []memory.Candidate, width int) []mcpRow {
	if len(pending) == 0 {
		return nil
	}
	rows := []mcpRow{{}, {text: fmt.Sprintf("Pending candidates (%d) — answered in the approval queue (y accepts, e edits, n rejects):", len(pending)), style: "accent"}}
	for _, c := range pending {
		line := "  " + c.Kind + ": " + c.Op + " “" + termtext.Line(c.Name) + "” → " + termtext.Line(c.Target)
		if c.SessionID != "" {
			line += " (session " + shortID(c.SessionID) + ")"
		}
		rows = append(rows, mcpRow{text: cutCells(line, width), style: "warning"})
	}
	return rows
}

// memoryKeyBar is the key bar while the view is open.
func memoryKeyBar(skills, confirming bool) []string {
	switch {
	case confirming:
		return []string{"y deletes", "n or Esc takes it back"}
	case skills:
		return []string{"r reload", "Esc close"}
	}
	return []string{"j/k select", "e/Enter edit", "d delete", "r reload", "Esc close"}
}

// drawMemoryView draws the view over the panes (r: the main area).
func (w *Workbench) drawMemoryView(screen tcell.Screen, r rect) {
	if r.W < 10 || r.H < 3 {
		return
	}
	for y := r.Y; y < r.Y+r.H; y++ {
		fillRow(screen, r.X, y, r.W, w.theme.Style("text"))
	}
	head := fmt.Sprintf("Memory (%d) — j/k select · e edits · d deletes · r reloads · Esc closes", len(w.mem.entries))
	rows := []mcpRow(nil)
	if w.mem.skills {
		var cmds []skillRow
		for _, c := range w.commands() {
			if c.Kind == "skill" {
				cmds = append(cmds, skillRow{c.Name, c.Origin, c.Description, c.Source})
			}
		}
		head = fmt.Sprintf("Skills (%d) — this session's catalog; a skill accepted now is in the next session's · Esc closes", len(cmds))
		rows = skillRows(cmds, w.mem.pending, r.W-4)
	} else {
		w.mem.sel = max(0, min(w.mem.sel, len(w.mem.entries)-1))
		rows = memoryRows(w.mem, r.W-4)
	}
	printAt(screen, r.X+2, r.Y, r.W-4, cutCells(head, r.W-4), w.theme.Style("accent").Bold(true))
	asked := false
	for i, row := range rows {
		if i >= r.H-2 {
			break
		}
		st := w.theme.Style(row.style)
		if row.bold {
			st = st.Bold(true)
		}
		printAt(screen, r.X+2, r.Y+2+i, r.W-4, row.text, st)
		asked = asked || (w.mem.confirm && strings.Contains(row.text, "y deletes"))
	}
	switch {
	case !asked:
		w.mem.confirmAt = time.Time{}
	case w.mem.confirmAt.IsZero():
		w.mem.confirmAt = w.now()
	}
}
