package tui

import (
	"context"
	"time"

	"pincer/ui/tui/browser"
	"pincer/ui/tui/overlay"
)

// UIState is everything the workbench shows and decides by, owned by the
// tview event loop: only key handlers, the frame's sync and draw, and the
// messages and events the pump's inbox delivers there read or write it.
// Background work never touches it directly (it posts to the inbox), so it
// is plain data: no lock, no atomics.
type UIState struct {
	// Panes and keys.
	focus     int
	lastList  int // paneTimeline or paneApprovals: what the diff pane follows
	zoom      int // pane index, or -1
	layout    LayoutMode
	helpOpen  bool
	mouse     bool
	lastCtrlC time.Time
	now       func() time.Time // the status line's clock: time.Now (a test's fake clock)

	approvalFocus approvalFocus // approval first: focus and keys (approval_keys.go)
	held          heldAnswer    // an answer key waiting for its commit delay (approval_hold.go)

	// The session shown and the backend.
	model      *Model
	be         Backend     // nil until Attach
	sessionID  string      // the session the panes show
	liveID     string      // the session turns go to (sessionID unless readOnly)
	readOnly   bool        // the panes show another session, read-only (the browser's Enter)
	replayEnd  uint64      // last sequence of the shown session when it was opened: the replay's end
	mode       string      // permission mode shown; the agent's once attached
	modeSet    bool        // changed before Attach: Attach hands it to the agent
	storeState string      // shown instead of the session until Attach
	notices    noticeState // the notices line and its expanded view (notices.go)
	running    bool        // a turn of this workbench runs
	runner     string      // another process running the shown session's turn (attach.go), "" when none
	queued     string      // a prompt waiting for that turn to end
	turnCancel context.CancelFunc
	flowBusy   bool          // a /model command runs
	ahead      []typedAhead  // keys typed while a /model flow runs with no prompt open (typeahead.go)
	sched      scheduleState // /loop and /schedule prompts (schedule.go)
	slashLine  string        // the line runSlash runs, while it runs (a /loop prompt keeps its text)

	// Overlays.
	browser     browser.State      // the sessions browser
	browserStop context.CancelFunc // ends the browser's loader (nil: none runs)
	reasonFor   string             // request ID a deny reason is being typed for
	reasonWhat  string             // its summary
	helpOffset  int                // first line of the help screen, when it scrolls
	prompt      *overlay.Prompt    // the /model prompt overlay, nil when closed
	mcp         mcpView            // the /mcp view (mcpview.go)

	// The transcript view's sync (sync.go) and the timeline's row cache.
	synced    map[string]syncRecord
	resetView bool
	restore   string        // input to put back in the box (a turn that did not start)
	notes     []pendingNote // local notices waiting to be added to the transcript
	// startNotes are the notices raised before any session was shown; the
	// first session's transcript gets them (startNotesShown).
	startNotes      []string
	startNotesShown bool
	noteSeq         int
	tlKeys          []timelineKey
	tlRows          []listRow

	// The input box's history, search, pastes and draft (input_state.go).
	in inputState
}
