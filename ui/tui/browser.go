package tui

import (
	"context"
	"errors"
	"fmt"

	"github.com/gdamore/tcell/v2"

	"pincer/core/app"
	"pincer/ui/tui/browser"
)

// openBrowser shows the sessions browser (or closes it when open) and loads
// the list in the background. Event loop only.
func (w *Workbench) openBrowser() {
	be := w.be
	if be == nil {
		w.Notify("warning", "the store is still opening: try again in a moment")
		return
	}
	if w.browser.Open {
		w.browser.Open = false
		return
	}
	w.browser = w.browser.Reopen()
	gen := w.browser.Gen
	if w.browserStop != nil { // the loader of an earlier opening
		w.browserStop()
	}
	ctx, stop := context.WithCancel(w.ctx)
	w.browserStop = stop
	live := w.liveID
	w.goBackground(func() { w.loadSessions(ctx, stop, be, gen, live) })
}

// loadSessions lists the sessions at once from their records (leaving out
// those in which no prompt was ever sent, but for the live one), then reads
// each one's log for its turns, tokens and cost, redrawing as they come. It
// stops when ctx ends: the workbench stopped, or the event loop found the
// browser closed or reopened (updateBrowser calls stop).
func (w *Workbench) loadSessions(ctx context.Context, stop context.CancelFunc, be Backend, gen int, live string) {
	defer stop()
	list, err := be.Sessions(ctx, browser.Max)
	sums := make([]browser.Summary, 0, len(list))
	for _, s := range list {
		if s.Title == "" && s.ID != live { // no prompt ever: nothing to browse (another workbench's, or one a crash left)
			continue
		}
		sums = append(sums, browser.SummaryOf(s))
	}
	if !w.updateBrowser(ctx, stop, gen, func(b *browser.State) {
		b.All, b.Loading = sums, false
		if err != nil {
			b.Status = "sessions: " + err.Error()
		}
	}) {
		return
	}
	for _, s := range sums {
		if ctx.Err() != nil {
			return
		}
		evs, err := be.Log().Read(ctx, s.ID, 0, 0)
		sum := browser.AddStats(s, evs)
		if err != nil {
			sum.Err = err.Error()
		}
		if !w.updateBrowser(ctx, stop, gen, func(b *browser.State) { b.Update(sum) }) {
			return
		}
	}
}

// updateBrowser changes the browser (through the pump's inbox, on the event
// loop), unless it was closed or reopened since load generation gen, in which
// case the message calls stop (when not nil) instead, so a loader ends early;
// it reports false once ctx has ended.
func (w *Workbench) updateBrowser(ctx context.Context, stop context.CancelFunc, gen int, f func(b *browser.State)) bool {
	w.pump.post(func() {
		switch {
		case w.browser.Open && w.browser.Gen == gen:
			f(&w.browser)
		case stop != nil:
			stop()
		}
	})
	return ctx.Err() == nil
}

// browserKey handles every key while the browser is open, as browserRoute
// decides (browser_keys.go): the filter has the printable keys, commands are
// on Enter, Ctrl+R, Ctrl+D and the moves, or on single keys after Esc. Event
// loop only.
func (w *Workbench) browserKey(ev *tcell.EventKey) {
	b := &w.browser
	global, _ := w.keys.Lookup([]Context{CtxGlobal}, ev)
	sessions, _ := w.keys.Lookup([]Context{CtxSessions, CtxList}, ev)
	move, act := browserRoute(ev, browserMode{confirm: b.Confirm != "", filtering: b.Filtering, filter: b.Filter != ""}, global, sessions)
	switch move {
	case browserConfirmYes:
		id := b.Confirm
		b.Confirm, b.Status = "", "deleting…"
		w.deleteSession(id)
		return
	case browserConfirmNo:
		b.Confirm, b.Status = "", "kept it"
		return
	}
	b.Status = ""
	switch move {
	case browserClose:
		b.Open = false
		return
	case browserClearFilter:
		b.Filter = ""
		return
	case browserLeaveFilter:
		b.Filtering = false
		return
	case browserEnterFilter:
		b.Filtering = true
		return
	case browserType:
		b.Filtering = true
		b.Type(ev.Rune())
		return
	case browserBackspace:
		b.Backspace()
		return
	case browserNothing:
		return
	}
	rows := b.Rows()
	i := b.Selected(rows)
	if step, ok := browserSteps[act]; ok {
		b.Move(step, rows, i)
		return
	}
	if i < 0 {
		b.Status = "no session selected"
		return
	}
	sum := rows[i]
	switch act {
	case ActSessionKids:
		if !b.Toggle(sum.ID) {
			b.Status = "this session started no subagents"
		}
	case ActOpenSession:
		b.Status = w.openSession(sum)
	case ActResume:
		b.Status = w.resumeFromBrowser(sum)
	case ActTimeTravel:
		b.Status = w.travelFromBrowser(sum)
	case ActDelete:
		switch sum.ID {
		case w.liveID:
			b.Status = "this is the session in use: /clear starts another, then it can be deleted"
		case w.sessionID:
			b.Status = "this session is open: close it first (Esc)"
		default:
			b.Confirm = sum.ID
		}
	}
}

// browserSteps are the browser's moves of the list keys.
var browserSteps = map[Action]browser.Step{ActDown: browser.Down, ActUp: browser.Up, ActTop: browser.Top,
	ActBottom: browser.Bottom, ActPageDown: browser.PageDown, ActPageUp: browser.PageUp}

// openSession is Enter: the session replaces the panes, read-only,
// until Esc. It returns why it cannot, or "".
func (w *Workbench) openSession(sum browser.Summary) string {
	if w.running {
		return "a turn is running: wait for it, or press Esc in the panes to cancel it"
	}
	w.browser.Open = false
	be, t := w.be, w.sessionTab
	w.goBackground(func() {
		w.showSession(t, be, sum.ID, true)
		w.Notify("info", "read-only: "+firstLine(sum.Title)+" — Esc returns to your session")
	})
	return ""
}

// resumeFromBrowser is r: the session becomes the live one, when it
// ran in this directory. It returns why it cannot, or "".
func (w *Workbench) resumeFromBrowser(sum browser.Summary) string {
	root := w.workspaceRoot()
	switch {
	case root != "" && sum.Cwd != root:
		return fmt.Sprintf("it ran in %s: resume it there (pincer --session %s)", sum.Cwd, sum.ID)
	case w.running:
		return "a turn is running: wait for it, or press Esc in the panes to cancel it"
	}
	w.browser.Open = false
	be, old, t := w.be, w.liveID, w.sessionTab
	w.goBackground(func() { w.resumeSession(t, be, old, sum.ID) })
	return ""
}

// deleteSession deletes a session after d and y, through the backend, which
// refuses a session another process is using; a deleted one leaves the list.
func (w *Workbench) deleteSession(id string) {
	be, gen := w.be, w.browser.Gen
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
		w.updateBrowser(w.ctx, nil, gen, func(b *browser.State) {
			b.Status = status
			if err == nil {
				b.Remove(id)
			}
		})
	})
}

// drawBrowser draws the sessions browser over the panes' area r.
func (w *Workbench) drawBrowser(screen tcell.Screen, r rect) {
	w.browser.Draw(screen, w.browserBox, r.X, r.Y, r.W, r.H, browser.View{LiveID: w.liveID, Root: w.workspaceRoot(),
		Style: w.theme.Style, Hints: append(w.keys.HelpBar([]Context{CtxSessions}), "Esc close"), Tokens: humanTokens})
}
