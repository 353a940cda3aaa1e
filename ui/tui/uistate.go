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
	helpTopic string         // "" the whole help screen; "agents" /agents' list (agents_cmd.go)
	bashOut   bashOutputView // /bashes ID's shell and its output (bashes_output.go)
	topicText []string       // the lines of a computed topic: /permissions, /status, /config (topic_text.go)
	mouse     bool
	lastCtrlC time.Time
	now       func() time.Time // the status line's clock: time.Now (a test's fake clock)

	approvalFocus approvalFocus // approval first: focus and keys (approval_keys.go)
	held          heldAnswer    // an answer key waiting for its commit delay (approval_hold.go)

	// The tabs (tab.go): every live session the workbench holds, in tab
	// order; the embedded one is the tab shown, whose fields (model,
	// sessionID, liveID, running, view, ...) the single-session code reads.
	*sessionTab
	tabs   []*sessionTab
	tabSeq int         // the last tab key handed out
	split  *sessionTab // the tab the split view shows beside the shown one (nil: no split)

	// The backend and what is not per session.
	be         Backend       // nil until Attach
	mode       string        // permission mode shown; the agent's once attached
	modeSet    bool          // changed before Attach: Attach hands it to the agent
	storeState string        // shown instead of the session until Attach
	notices    noticeState   // the notices line and its expanded view (notices.go)
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
	wt          worktreesView      // the /worktrees view (worktrees_view.go)
	rw          rewindView         // the /rewind view (rewind_view.go)
	ed          textEditor         // a candidate's or memory's text being edited (candidate_editor.go)
	mem         memoryView         // the /memory and /skills view (memory_view.go)
	candDiff    candidateDiffs     // the candidates' diffs, loaded once (candidate_diff.go)

	// Local notes waiting for the transcripts (sync.go).
	notes []pendingNote // local notices waiting to be added to the transcript of their session's tab
	// startNotes are the notices raised before any session was shown; the
	// first session's transcript gets them (startNotesShown).
	startNotes      []string
	startNotesShown bool
	noteSeq         int

	// The input box's history, search, pastes and draft (input_state.go).
	in inputState
}
