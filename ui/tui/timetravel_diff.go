package tui

import (
	"fmt"

	"pincer/core/app"
)

// travelScope is what the diff pane shows in time travel; d cycles them.
type travelScope int

// The scopes, in the order d cycles them.
const (
	scopeSoFar travelScope = iota // the workspace's changes from the session's start to the step
	scopeTurn                     // the step's turn's changes so far (every file it changed, Bash included)
	scopeCall                     // the selected call's changes (a command's too, found by its scan)
	scopeLive                     // what a live session's diff pane showed at the step
	scopeCount
)

// scopeNames name the scopes in the diff pane's title and the hint.
var scopeNames = [scopeCount]string{"workspace since the start", "this turn's changes", "this call's changes", "as the session showed it"}

// travelDiff is the diff pane's text in time travel: that of the span key,
// once the backend's diff (app.SessionDiffOf) of it came back.
type travelDiff struct {
	key        string // the span asked for ("": none yet)
	ready      bool   // text (or err) is key's
	text, err  string
	title, msg string // the pane's title; msg: a line shown instead of a diff (nothing to diff)
}

// travelSpan is the span of the diff pane in time travel at the step, its
// cache key and title; ok false when there is nothing to ask the backend
// (msg says why, or the scope is scopeLive).
func (w *Workbench) travelSpan(t *sessionTab) (span app.DiffSpan, key, title, msg string, ok bool) {
	tt, m := t.travel, t.model
	at := fmt.Sprintf(" · seq %d", tt.seq())
	title = scopeNames[tt.scope] + at
	switch tt.scope {
	case scopeSoFar:
		if m.Checkpoint == 0 {
			return span, "", title, "Nothing in the workspace had changed yet at this step.", false
		}
		span = app.DiffSpan{Through: m.Checkpoint}
	case scopeTurn:
		if m.Status.TurnID == "" {
			return span, "", title, "No turn had started yet at this step.", false
		}
		span = app.DiffSpan{TurnID: m.Status.TurnID, Through: m.Checkpoint}
		if !turnChanged(m, m.Status.TurnID) {
			return span, "", title, "This turn had changed no file yet at this step.", false
		}
	case scopeCall:
		row, selected := w.timeline.selected()
		e, found := m.Tool(row.Key)
		switch {
		case !selected || !found:
			return span, "", title, "No call of this session selected: pick one in the timeline (a subagent's changes are in its own session: o opens it).", false
		case e.Checkpoint == 0:
			return span, "", e.Summary + at, e.Summary + " had changed no file pincer recorded by this step.", false
		}
		span, title = app.DiffSpan{ToolCallID: e.ToolCallID}, e.Summary+" · its changes"+at
	default:
		return span, "", "", "", false
	}
	return span, fmt.Sprintf("%s|%s|%s|%d", tt.session, span.TurnID, span.ToolCallID, span.Through), title, "", true
}

// loadTravelDiff asks the backend, off the event loop, for the diff the
// step's scope needs, unless it holds it or asked already; the answer comes
// back through the inbox (a later step's question makes an earlier answer
// stale: it is dropped).
func (w *Workbench) loadTravelDiff(t *sessionTab) {
	tt := t.travel
	if tt == nil {
		return
	}
	span, key, title, msg, ok := w.travelSpan(t)
	tt.diff.title, tt.diff.msg = title, msg
	if !ok || key == tt.diff.key || w.be == nil {
		return
	}
	tt.diff.key, tt.diff.ready = key, false
	be, id := w.be, tt.session
	w.goBackground(func() {
		text, err := be.SessionDiff(w.ctx, id, span)
		w.pump.post(func() {
			if t.travel != tt || tt.diff.key != key {
				return
			}
			tt.diff.ready, tt.diff.text, tt.diff.err = true, text, ""
			if err != nil {
				tt.diff.err = err.Error()
			}
		})
	})
}

// travelDiffContent is the diff pane's content in time travel; false when
// the tab does not travel or the scope is scopeLive (the pane then shows what
// a live session showed: diffContent).
func (w *Workbench) travelDiffContent() (diffContent, bool) {
	tt := w.travel
	if tt == nil || tt.scope == scopeLive {
		return diffContent{}, false
	}
	w.loadTravelDiff(w.sessionTab) // the selected call may have changed
	d := tt.diff
	c := diffContent{Key: fmt.Sprintf("travel:%d:%s:%s", tt.scope, d.key, d.msg), Title: d.title}
	switch {
	case d.msg != "":
		c.Text, c.Prose = d.msg, true
	case !d.ready:
		c.Text, c.Prose = "loading the diff…", true
	case d.err != "":
		c.Text, c.Prose = "The diff could not be read: "+d.err, true
	case d.text == "":
		c.Text, c.Prose = "No file changed in this span (a file changed and changed back is left out).", true
	default:
		c.Text, c.Diff = d.text, true
	}
	return c, true
}

// turnChanged reports whether a call of turn turnID had changed files by the
// model's step (its checkpoint.recorded folded).
func turnChanged(m *Model, turnID string) bool {
	for _, e := range m.Timeline {
		if e.TurnID == turnID && e.Checkpoint != 0 {
			return true
		}
	}
	return false
}
