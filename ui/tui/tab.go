package tui

import (
	"context"

	"pincer/ui/tui/transcript"
)

// sessionTab is one live session the workbench holds: a tab. Each has its
// own model (folded from its own follower of the event log, pump.follow
// keyed by key), its own transcript view and timeline rows, and its own turn,
// which runs while other tabs' turns run too. The tab shown is
// UIState.sessionTab; its fields are promoted, so code that works on "the
// session shown" (w.model, w.running, w.view) reads the shown tab. Code that
// outlives a tab switch — a turn's goroutine, a follower's events, a reply
// posted back to the event loop — captures its *sessionTab and works on
// that. Event loop only, like all of UIState.
type sessionTab struct {
	key      int    // the tab's follower key: unique in the workbench, never reused
	worktree string // the git worktree the tab's session runs in ("": the workspace)

	model     *Model
	sessionID string // the session the tab's panes show
	liveID    string // the session turns go to (sessionID unless readOnly)
	readOnly  bool   // the panes show another session, read-only (the browser's Enter)
	// travel: the read-only session is scrubbed through its log (timetravel.go;
	// nil: it shows the log's end); travelLoad: its log is being read.
	travel     *timeTravel
	travelLoad travelLoad
	replayEnd  uint64 // last sequence of the shown session when it was opened: the replay's end
	// backfilling: the model is a long log's tail until the whole log's
	// arrives (resume_tail.go); tailInterrupted: the replay's end showed
	// the tail's open turn interrupted, to be done again on the whole log's.
	backfilling, tailInterrupted bool
	running                      bool   // a turn of this workbench runs on the tab's session
	runner                       string // another process running the shown session's turn (attach.go), "" when none
	queued                       string // a prompt waiting for that turn to end
	// turnCancel cancels the tab's running turn (nil when none runs).
	turnCancel context.CancelFunc
	restore    string // input to put back in the box when the tab is shown and the box is empty (a turn that did not start)

	// The transcript view's sync (sync.go) and the timeline's row cache.
	view      *transcript.View
	synced    map[string]syncRecord
	resetView bool
	tlKeys    []timelineKey
	tlRows    []listRow
	subs      subViewState // subagents' steps shown nested in the timeline (children.go)
}

// newTab makes an empty tab with the next key; its session is shown by
// showSession.
func (w *Workbench) newTab() *sessionTab {
	w.tabSeq++
	return &sessionTab{key: w.tabSeq, model: NewModel(), view: w.newTranscriptView(), synced: map[string]syncRecord{}}
}

// tabByKey finds the open tab of a follower key (nil: closed).
func (w *Workbench) tabByKey(key int) *sessionTab {
	for _, t := range w.tabs {
		if t.key == key {
			return t
		}
	}
	return nil
}

// tabOf finds the open tab showing sessionID (nil: none).
func (w *Workbench) tabOf(sessionID string) *sessionTab {
	for _, t := range w.tabs {
		if t.sessionID == sessionID {
			return t
		}
	}
	return nil
}

// turnRunning is whether the tab's session runs a turn: this workbench's,
// or one the log says runs.
func (t *sessionTab) turnRunning() bool {
	return t.running || t.model.Status.Turn == TurnRunning
}
