package tui

import (
	"pincer/core/event"
)

// The workbench follows the logs of the shown session's subagents: every
// child still running once the replay reached the end of what was stored
// (and, live, each one a subagent.started announces), and any child whose
// steps the person expands in the timeline. A child's events go to
// Model.ApplyChild (reduce_subagents.go), which keeps its model and mirrors
// its pending requests into the one approvals queue, labelled: without this
// a foreground subagent's ask would wait for an answer nobody could give.
// A child's follower ends when the subagent completed and the child's turn
// ended (its log is final then). Event loop only.

// subViewState is the workbench's view of the subagents: which Agent calls
// show their steps nested in the timeline.
type subViewState struct {
	expanded map[string]bool // child session ID -> its steps are shown
	items    []timelineItem  // the timeline's rows, reused frame to frame (children_timeline.go)
}

// watchSubagents starts or ends child followers for an event of tab t's
// session: live, a subagent.started follows the child at once; at the end
// of the replay every subagent still running is followed.
func (w *Workbench) watchSubagents(t *sessionTab, ev event.Event, replayDone bool) {
	switch {
	case replayDone:
		for _, s := range t.model.Subagents() {
			if s.Running() && !s.Orphaned {
				w.followChild(t, s.ChildSessionID)
			}
		}
	case t.replayEnd != 0: // still replaying: decided once it ends
	case ev.Type == event.SubagentStarted:
		if d, err := ev.Payload(); err == nil {
			w.followChild(t, d.(event.SubagentStartedData).ChildSessionID)
		}
	case ev.Type == event.SubagentCompleted:
		if p, err := ev.Payload(); err == nil {
			d := p.(event.SubagentCompletedData)
			w.maybeUnfollow(t, d.ChildSessionID)
			if s, ok := t.model.Subagent(d.ChildSessionID); ok && s.Background {
				level, text := backgroundNotice(s)
				w.noticeFor(t, level, text)
			}
		}
	}
}

// backgroundNotice is the notice of a background subagent that ended (its
// result reaches the parent's next model call as a reminder): "background
// subagent [Explore] find the loader: done · 3 model calls".
func backgroundNotice(s SubagentEntry) (level, text string) {
	level = "info"
	if s.Outcome == SubagentFailed || s.Outcome == SubagentCancelled {
		level = "warning"
	}
	text = "background subagent [" + subagentLabel(s) + "]"
	if d := firstLine(s.Description); d != "" {
		text += " " + d
	}
	return level, text + ": " + subagentProgress(s, nil)
}

// followChild starts following a child session's log for tab t (no-op when
// followed).
func (w *Workbench) followChild(t *sessionTab, id string) {
	if w.be == nil || id == "" {
		return
	}
	w.pump.followChild(t.key, w.be.Log(), id, func(err error) { w.Notify("error", "subagent log: "+err.Error()) })
}

// applyChildEvent folds an event of a child session followed for the tab
// of key; the pump's drain calls it, on the event loop.
func (w *Workbench) applyChildEvent(key int, child string, ev event.Event) {
	t := w.tabByKey(key)
	if t == nil {
		return
	}
	t.model.ApplyChild(child, ev)
	switch ev.Type {
	case event.TurnCompleted, event.TurnFailed, event.TurnCancelled:
		w.maybeUnfollow(t, child)
	}
}

// maybeUnfollow ends a child's follower once nothing more can come: the
// subagent completed and its child's turn is not running.
func (w *Workbench) maybeUnfollow(t *sessionTab, child string) {
	s, ok := t.model.Subagent(child)
	if !ok || s.Running() {
		return
	}
	if c := t.model.Child(child); c != nil && c.Status.Turn == TurnRunning {
		return
	}
	w.pump.unfollowChild(t.key, child)
}

// toggleSubagent expands or collapses the steps of a subagent in the shown
// tab's timeline, following its log when it was not (a finished one,
// replayed).
func (w *Workbench) toggleSubagent(child string) {
	t := w.sessionTab
	if t.subs.expanded == nil {
		t.subs.expanded = map[string]bool{}
	}
	if t.subs.expanded[child] {
		delete(t.subs.expanded, child)
		return
	}
	t.subs.expanded[child] = true
	if t.model.Child(child) == nil {
		w.followChild(t, child)
	}
}
