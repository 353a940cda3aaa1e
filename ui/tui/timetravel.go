package tui

import (
	"pincer/core/event"
)

// Time travel (issue 15): a session shown read-only can be scrubbed through
// its event log one event at a time. At each step the panes show the session
// as it was once that event was logged — the transcript so far, the calls so
// far, the approvals pending then — because the model is the reducer's fold
// of the log's first events (Model.Apply, the one reducer: nothing here
// interprets an event), and the diff pane shows the workspace's changes from
// the session's start to the step (timetravel_diff.go). Keys:
// timetravel_keys.go; the status line's marker and cursor:
// timetravel_status.go.

// timeTravel is a tab's time travel: the shown session's whole log and how
// much of it the panes show.
type timeTravel struct {
	session string
	events  []event.Event // the log, in sequence order (a session still running grows it: arrive)
	pos     int           // events folded into the tab's model: the step is events[pos-1]
	scope   travelScope   // what the diff pane shows
	diff    travelDiff    // the diff pane's text for the step (timetravel_diff.go)
}

// seq is the sequence of the step (0 before the first event).
func (tt *timeTravel) seq() uint64 {
	if tt.pos == 0 {
		return 0
	}
	return tt.events[tt.pos-1].Sequence
}

// last is the sequence of the log's last event.
func (tt *timeTravel) last() uint64 {
	if len(tt.events) == 0 {
		return 0
	}
	return tt.events[len(tt.events)-1].Sequence
}

// turnStarts are the steps (positions) at which each turn starts: the
// position just after its turn.started, in order.
func (tt *timeTravel) turnStarts() []int {
	var out []int
	for i, ev := range tt.events {
		if ev.Type == event.TurnStarted {
			out = append(out, i+1)
		}
	}
	return out
}

// turnAt is the number (from 1) of the turn the step is in and how many turns
// the log holds; 0 before the first turn.started.
func (tt *timeTravel) turnAt() (turn, turns int) {
	for _, p := range tt.turnStarts() {
		turns++
		if p <= tt.pos {
			turn = turns
		}
	}
	return turn, turns
}

// turnIDAt is the ID of the turn the step is in ("" before the first
// turn.started).
func (tt *timeTravel) turnIDAt() string {
	id := ""
	for _, p := range tt.turnStarts() {
		if p <= tt.pos {
			id = tt.events[p-1].TurnID
		}
	}
	return id
}

// foldTo is the model of the session at position pos: the reducer applied to
// the log's first pos events, in order.
func foldTo(events []event.Event, pos int) *Model {
	m := NewModel()
	for _, ev := range events[:pos] {
		m.Apply(ev)
	}
	return m
}

// arrive adds an event the tab's follower delivered while travelling (a
// session that still runs): it extends the log; one already held is
// dropped. It reports whether the step was at the end, which then follows.
func (tt *timeTravel) arrive(ev event.Event) bool {
	if ev.Sequence != 0 && ev.Sequence <= tt.last() {
		return false
	}
	atEnd := tt.pos == len(tt.events)
	tt.events = append(tt.events, ev)
	return atEnd
}

// travelLoad is a tab's time travel while its log is read: the events its
// follower delivers meanwhile are kept, so none is missed once it starts.
type travelLoad struct {
	on    bool
	early []event.Event
}

// keep keeps ev while a load is on.
func (l *travelLoad) keep(ev event.Event) {
	if l.on {
		l.early = append(l.early, ev)
	}
}

// travelArrived takes an event of tab t's follower while it travels: the log
// grows; a step at the end follows it.
func (w *Workbench) travelArrived(t *sessionTab, ev event.Event) {
	if t.travel.arrive(ev) {
		w.travelTo(t, len(t.travel.events))
	}
}

// travelTo shows tab t's session at position pos (clamped to the log): a
// step forward applies the events between to the model; a step back folds
// the log afresh from its start (the reducer never un-applies).
func (w *Workbench) travelTo(t *sessionTab, pos int) {
	tt := t.travel
	pos = max(0, min(pos, len(tt.events)))
	if len(tt.events) > 0 {
		pos = max(pos, 1) // the start is the first event (session.created), not an empty screen
	}
	if pos >= tt.pos && t.model != nil {
		for _, ev := range tt.events[tt.pos:pos] {
			t.model.Apply(ev)
		}
	} else {
		t.model = foldTo(tt.events, pos)
		t.resetView = true
	}
	tt.pos = pos
	w.travelStepped(t)
}

// travelStepped follows a step in the panes: the approvals pane selects the
// oldest request pending then, as a live session's queue does when one
// waits; the diff pane reloads (the timeline's selection follows its newest
// call, as a live session's does, unless the person moved it).
func (w *Workbench) travelStepped(t *sessionTab) {
	if t == w.sessionTab && len(t.model.Approvals) > 0 {
		w.approvals.sel = t.model.Approvals[0].RequestID
	}
	w.loadTravelDiff(t)
}
