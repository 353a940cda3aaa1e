package tui

import (
	"errors"
	"fmt"

	"github.com/gdamore/tcell/v2"

	"pincer/core/app"
)

// maxBrowse is how many sessions (newest first) the browser lists.
const maxBrowse = 500

// browserState is the sessions browser (Ctrl+O, /sessions): a list of past
// sessions drawn over the panes. Guarded by the workbench mutex; keys change
// it on the event loop, the loader fills it in the background.
type browserState struct {
	open      bool
	loading   bool
	gen       int              // load generation: a reopened browser ignores older loaders
	all       []sessionSummary // newest first
	filter    string
	filtering bool   // printable keys go to the filter
	sel       string // ID of the selected session
	idx       int    // its last known row
	offset    int
	visible   int
	confirm   string // ID of the session d asked to delete
	status    string // a line under the list: a refusal, an error, progress
}

// browserOpen reports whether the sessions browser is shown.
func (w *Workbench) browserOpen() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.browser.open
}

// openBrowser shows the sessions browser (or closes it when open) and loads
// the list in the background. Event loop only.
func (w *Workbench) openBrowser() {
	w.mu.Lock()
	be := w.be
	if be == nil {
		w.mu.Unlock()
		w.Notify("warning", "the store is still opening: try again in a moment")
		return
	}
	if w.browser.open {
		w.browser.open = false
		w.mu.Unlock()
		return
	}
	w.browser = browserState{open: true, loading: true, gen: w.browser.gen + 1}
	gen := w.browser.gen
	w.mu.Unlock()
	w.goBackground(func() { w.loadSessions(be, gen) })
}

// loadSessions lists the sessions at once from their records, then reads
// each one's log for its turns, tokens and cost, redrawing as they come.
func (w *Workbench) loadSessions(be Backend, gen int) {
	list, err := be.Sessions(w.ctx, maxBrowse)
	sums := make([]sessionSummary, len(list))
	for i, s := range list {
		sums[i] = summaryOf(s)
	}
	if !w.updateBrowser(gen, func(b *browserState) {
		b.all, b.loading = sums, false
		if err != nil {
			b.status = "sessions: " + err.Error()
		}
	}) {
		return
	}
	for _, s := range sums {
		if w.ctx.Err() != nil {
			return
		}
		evs, err := be.Log().Read(w.ctx, s.ID, 0, 0)
		sum := addStats(s, evs)
		if err != nil {
			sum.Err = err.Error()
		}
		if !w.updateBrowser(gen, func(b *browserState) {
			for i := range b.all {
				if b.all[i].ID == sum.ID {
					b.all[i] = sum
				}
			}
		}) {
			return
		}
	}
}

// updateBrowser changes the browser under the mutex and redraws, unless it
// was closed or reopened since load generation gen (then it reports false).
func (w *Workbench) updateBrowser(gen int, f func(b *browserState)) bool {
	w.mu.Lock()
	ok := w.browser.open && w.browser.gen == gen
	if ok {
		f(&w.browser)
	}
	w.mu.Unlock()
	w.pump.markDirty()
	return ok
}

// browserRowsLocked returns the sessions the filter lets through.
func (w *Workbench) browserRowsLocked() []sessionSummary {
	b := &w.browser
	if b.filter == "" {
		return b.all
	}
	var out []sessionSummary
	for _, s := range b.all {
		if s.matches(b.filter) {
			out = append(out, s)
		}
	}
	return out
}

// browserSelectedLocked resolves the selection in rows (by ID, else the
// nearest row) and returns its index, -1 for an empty list.
func (w *Workbench) browserSelectedLocked(rows []sessionSummary) int {
	b := &w.browser
	if len(rows) == 0 {
		b.idx = 0
		return -1
	}
	for i, s := range rows {
		if s.ID == b.sel {
			b.idx = i
			return i
		}
	}
	b.idx = max(0, min(b.idx, len(rows)-1))
	b.sel = rows[b.idx].ID
	return b.idx
}

// browserKey handles every key while the browser is open. Printable keys
// that are not the browser's own (Enter, r, d, /, the list keys) start the
// filter; while filtering every printable key goes to it, and Enter, the
// arrows, Backspace and Esc keep working. Event loop only.
func (w *Workbench) browserKey(ev *tcell.EventKey) {
	w.mu.Lock()
	b := &w.browser
	if b.confirm != "" {
		id := b.confirm
		b.confirm, b.status = "", "kept it"
		yes := ev.Key() == tcell.KeyRune && (ev.Rune() == 'y' || ev.Rune() == 'Y')
		if yes {
			b.status = "deleting…"
		}
		w.mu.Unlock()
		if yes {
			w.deleteSession(id)
		}
		return
	}
	defer w.mu.Unlock()
	b.status = ""
	if act, ok := w.keys.Lookup([]Context{CtxGlobal}, ev); ok && (act == ActCancel || act == ActQuit || act == ActSessions) {
		b.open = false // Esc, Ctrl+C or Ctrl+O again
		return
	}
	switch ev.Key() {
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		if r := []rune(b.filter); len(r) > 0 {
			b.filter = string(r[:len(r)-1])
		}
		b.filtering = b.filter != "" // emptied: the browser's keys work again
		return
	case tcell.KeyRune:
		if b.filtering && ev.Modifiers()&(tcell.ModAlt|tcell.ModCtrl) == 0 {
			b.filter += string(ev.Rune())
			return
		}
	}
	act, ok := w.keys.Lookup([]Context{CtxSessions, CtxList}, ev)
	if !ok {
		if ev.Key() == tcell.KeyRune && ev.Modifiers()&(tcell.ModAlt|tcell.ModCtrl) == 0 {
			b.filtering = true
			b.filter += string(ev.Rune())
		}
		return
	}
	rows := w.browserRowsLocked()
	i := w.browserSelectedLocked(rows)
	if isNavigation(act) {
		w.browserMoveLocked(act, rows, i)
		return
	}
	if act == ActFilter {
		b.filtering = true
		return
	}
	if i < 0 {
		b.status = "no session selected"
		return
	}
	sum := rows[i]
	switch act {
	case ActOpenSession:
		b.status = w.openSessionLocked(sum)
	case ActResume:
		b.status = w.resumeFromBrowserLocked(sum)
	case ActDelete:
		switch sum.ID {
		case w.liveID:
			b.status = "this is the session in use: /clear starts another, then it can be deleted"
		case w.sessionID:
			b.status = "this session is open: close it first (Esc)"
		default:
			b.confirm = sum.ID
		}
	}
}

// browserMoveLocked moves the selection.
func (w *Workbench) browserMoveLocked(act Action, rows []sessionSummary, i int) {
	if i < 0 {
		return
	}
	page := max(1, w.browser.visible-1)
	switch act {
	case ActDown:
		i++
	case ActUp:
		i--
	case ActTop:
		i = 0
	case ActBottom:
		i = len(rows) - 1
	case ActPageDown:
		i += page
	case ActPageUp:
		i -= page
	}
	i = max(0, min(i, len(rows)-1))
	w.browser.idx, w.browser.sel = i, rows[i].ID
}

// openSessionLocked is Enter: the session replaces the panes, read-only,
// until Esc. It returns why it cannot, or "".
func (w *Workbench) openSessionLocked(sum sessionSummary) string {
	if w.running {
		return "a turn is running: wait for it, or press Esc in the panes to cancel it"
	}
	w.browser.open = false
	w.goBackground(func() {
		w.showSession(sum.ID, true)
		w.Notify("info", "read-only: "+firstLine(sum.Title)+" — Esc returns to your session")
	})
	return ""
}

// resumeFromBrowserLocked is r: the session becomes the live one, when it
// ran in this directory. It returns why it cannot, or "".
func (w *Workbench) resumeFromBrowserLocked(sum sessionSummary) string {
	root := w.rootLocked()
	switch {
	case root != "" && sum.Cwd != root:
		return fmt.Sprintf("it ran in %s: resume it there (pincer --session %s)", sum.Cwd, sum.ID)
	case w.running:
		return "a turn is running: wait for it, or press Esc in the panes to cancel it"
	}
	w.browser.open = false
	w.goBackground(func() { w.resumeSession(sum.ID) })
	return ""
}

// deleteSession deletes a session after d and y, through the backend, which
// refuses a session another process is using; a deleted one leaves the list.
func (w *Workbench) deleteSession(id string) {
	w.mu.Lock()
	be, gen := w.be, w.browser.gen
	w.mu.Unlock()
	if be == nil {
		return
	}
	w.goBackground(func() {
		err := be.DeleteSession(w.ctx, id)
		var inUse *app.InUseError
		status := "deleted session " + id
		switch {
		case errors.As(err, &inUse):
			status = err.Error() + ": not deleted"
		case err != nil:
			status = "delete: " + err.Error()
		}
		w.updateBrowser(gen, func(b *browserState) {
			b.status = status
			if err != nil {
				return
			}
			kept := b.all[:0:0]
			for _, s := range b.all {
				if s.ID != id {
					kept = append(kept, s)
				}
			}
			b.all = kept
		})
	})
}
