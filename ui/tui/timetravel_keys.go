package tui

import (
	"github.com/gdamore/tcell/v2"

	"pincer/ui/tui/browser"
)

// The time-travel keys work on a session shown read-only (the browser's
// Enter or Ctrl+B, a subagent's o), from any pane and from the input box
// while it is empty: [ and ] step one event, { and } jump by turn, < and >
// to the start and the end, d cycles what the diff pane shows, R turns the
// step into a rewind. The first of them loads the session's whole log and
// starts at its end.

// travelKeyEvent handles ev when it is a time-travel key and the shown tab
// shows a session read-only; it reports whether it used the key.
func (w *Workbench) travelKeyEvent(ev *tcell.EventKey) bool {
	if w.sessionTab == nil || !w.readOnly || (w.focus == paneInput && w.input.GetText() != "") {
		return false
	}
	act, ok := w.keys.Lookup([]Context{CtxTravel}, ev)
	if !ok {
		return false
	}
	if w.travel == nil {
		w.startTravel(w.sessionTab, act)
		return true
	}
	w.travelAct(w.sessionTab, act)
	return true
}

// startTravel loads the whole log of tab t's session off the event loop and
// starts time travel at its end, then does act there ("": nothing more).
func (w *Workbench) startTravel(t *sessionTab, act Action) {
	be, id := w.be, t.sessionID
	if be == nil || id == "" || !t.readOnly || t.travelLoad.on {
		return
	}
	t.travelLoad = travelLoad{on: true}
	w.goBackground(func() {
		evs, err := be.Log().Read(w.ctx, id, 0, 0)
		w.pump.post(func() {
			if t.sessionID != id || !t.readOnly || !t.travelLoad.on { // left meanwhile
				return
			}
			early := t.travelLoad.early
			t.travelLoad = travelLoad{}
			if err != nil {
				w.notice("error", "time travel: the log of "+shortID(id)+" could not be read: "+err.Error())
				return
			}
			tt := &timeTravel{session: id, events: evs}
			for _, ev := range early { // the follower's, delivered while the log was read
				tt.arrive(ev)
			}
			t.travel = tt
			t.backfilling, t.replayEnd = false, 0 // the travel's fold is the whole log's (resume_tail.go's tail is dropped)
			t.model, t.resetView = foldTo(tt.events, len(tt.events)), true
			tt.pos = len(tt.events)
			w.travelTo(t, tt.pos)
			if act != "" {
				w.travelAct(t, act)
			}
		})
	})
}

// travelAct does a time-travel action on tab t, which travels.
func (w *Workbench) travelAct(t *sessionTab, act Action) {
	tt := t.travel
	switch act {
	case ActTravelBack:
		w.travelTo(t, tt.pos-1)
	case ActTravelForward:
		w.travelTo(t, tt.pos+1)
	case ActTravelTurnBack:
		to := 1
		for _, p := range tt.turnStarts() {
			if p < tt.pos {
				to = p
			}
		}
		w.travelTo(t, to)
	case ActTravelTurnNext:
		to := len(tt.events)
		for _, p := range tt.turnStarts() {
			if p > tt.pos {
				to = p
				break
			}
		}
		w.travelTo(t, to)
	case ActTravelStart:
		w.travelTo(t, 1)
	case ActTravelEnd:
		w.travelTo(t, len(tt.events))
	case ActTravelDiffScope:
		tt.scope = (tt.scope + 1) % scopeCount
		w.loadTravelDiff(t) // the status line names the scope (no notice: its line would move the panes)
	case ActTravelRewind:
		w.rewindStep(t)
	}
}

// travelFromBrowser is the browser's Ctrl+B: the session opens read-only (as
// Enter opens it) and time travel starts at its end. It returns why it
// cannot, or "".
func (w *Workbench) travelFromBrowser(sum browser.Summary) string {
	if w.running {
		return "a turn is running: wait for it, or press Esc in the panes to cancel it"
	}
	w.browser.Open = false
	be, t := w.be, w.sessionTab
	w.goBackground(func() {
		w.showSession(t, be, sum.ID, true) // posts the tab's reset: the start below comes after it
		w.pump.post(func() {
			if t.sessionID == sum.ID && t.readOnly {
				w.startTravel(t, "")
			}
		})
	})
	return ""
}

// rewindStep is R: the rewind dialog (/rewind) at the turn the step is in,
// whose rewind returns the session to before that turn; the session is
// resumed first (OpenRewind), so time travel ends.
func (w *Workbench) rewindStep(t *sessionTab) {
	id := t.travel.turnIDAt()
	if id == "" {
		w.hint("this step is before the session's first turn: nothing to rewind")
		return
	}
	if why := w.openRewind(t.sessionID, rewindWant{id: id}); why != "" {
		w.hint("rewind: " + why)
	}
}
