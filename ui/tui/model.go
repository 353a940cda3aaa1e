// Package tui is pincer's full-screen workbench: a tview application with a
// transcript, a tool-call timeline, an approval queue, a diff preview, a
// multi-line input box and a status line.
//
// The contract, in the order the code keeps it:
//
//   - The session's event log is the only feed of every pane. One pump
//     goroutine follows the log from sequence 1 and posts each event to the
//     pump's one inbox, marking the screen dirty; a coalescing loop redraws
//     at most 30 times a second, and only when something changed. A
//     workbench that attaches late therefore shows exactly what one that
//     watched live shows.
//   - The workbench's state (UIState, with the Model) is read and written
//     on the tview event loop only, so it takes no lock. Input handlers run
//     there and mutate it directly; nothing on the event loop ever calls
//     QueueUpdate or QueueUpdateDraw. Background work (a turn ending, the
//     sessions loader, a /model flow, a notice) changes no state itself: it
//     posts a message to the same inbox, which every frame and every key
//     drains on the event loop, events (folded by the pure reducer,
//     Model.Apply) and messages in the order posted.
//   - The workbench talks to core only through its Backend (backend.go).
//   - Every key comes from one KeyMap table, which also writes the help bar
//     and the help screen and takes config overrides.
//   - Approvals go back to the agent through the Approver; Approve blocks
//     until the person answers or the turn's context ends.
//   - Stop ends the pump and every goroutine the workbench started before it
//     stops the tview application; no goroutine outlives Run.
package tui

import (
	"strings"
	"time"

	"pincer/core/event"
	"pincer/ui/tui/transcript"
)

// ToolStatus is the state of a tool call in the timeline.
type ToolStatus string

// Tool call states, as the transcript view names them.
const (
	ToolPending ToolStatus = transcript.StatusPending // allowed, not started yet
	// ToolReceiving: the model is still streaming the call's arguments
	// (tool.receiving); only its name is known.
	ToolReceiving ToolStatus = transcript.StatusReceiving
	ToolApproval  ToolStatus = transcript.StatusApproval // waiting in the approval queue
	ToolRunning   ToolStatus = transcript.StatusRunning
	ToolDone      ToolStatus = transcript.StatusDone
	ToolFailed    ToolStatus = transcript.StatusFailed
	ToolDenied    ToolStatus = transcript.StatusDenied
	// ToolInterrupted: its turn ended, or its process died, before it finished
	// (or before its approval was answered).
	ToolInterrupted ToolStatus = transcript.StatusInterrupted
	// ToolUnanswered: its approval request was resolved as a denial nobody
	// gave (event.ByUnanswered: the turn was cancelled before an answer).
	ToolUnanswered ToolStatus = transcript.StatusUnanswered
)

// Icon is the one-cell status mark the timeline shows.
func (s ToolStatus) Icon() string {
	switch s {
	case ToolApproval:
		return "?"
	case ToolReceiving:
		return "…"
	case ToolRunning:
		return ">"
	case ToolDone:
		return "✓"
	case ToolFailed:
		return "✗"
	case ToolDenied:
		return "!"
	case ToolInterrupted, ToolUnanswered:
		return "↯"
	}
	return "."
}

// ToolEntry is one tool call of the session, as the timeline shows it.
type ToolEntry struct {
	ToolCallID string
	TurnID     string
	Name       string
	Summary    string
	Input      string // JSON, from tool.started (empty for calls that never started)
	Status     ToolStatus
	RequestID  string        // the permission request, while one is pending
	Started    time.Time     // tool.started's timestamp (zero when it never started)
	Duration   time.Duration // from tool.completed
	Output     string
	Diff       string // unified diff of the change the call made
	// OutputLines is the whole output's line count when Output is a cut of it.
	OutputLines int
	// DeniedBy is who refused the call (tool.completed's: "mode:plan", "rule
	// …", "hook"); "" when it was not refused or a person denied it.
	DeniedBy string
	// Checkpoint is the Seq of the checkpoint of what the call changed in
	// the workspace (checkpoint.recorded; 0: it changed nothing recorded).
	Checkpoint uint64
}

// deniedNote is what follows "denied" for a call a mode refused: "(plan
// mode)"; "" otherwise (a person's or a rule's denial says so in its output).
func (e ToolEntry) deniedNote() string {
	if m, ok := strings.CutPrefix(e.DeniedBy, "mode:"); ok && e.Status == ToolDenied {
		return "(" + m + " mode)"
	}
	return ""
}

// PendingApproval is one permission request waiting for an answer.
type PendingApproval struct {
	RequestID  string
	ToolCallID string
	TurnID     string
	Name       string
	Summary    string
	Reason     string
	Sequence   uint64 // of its permission.requested event: the queue is oldest first
	// Diff is the unified diff the call would make (file tools), as the
	// tool computed it for permission.requested; PreviewError is the tool's
	// reason why the call would fail instead. Both empty for other tools.
	Diff, PreviewError string
	// Command is the whole shell command of a Bash call (the Summary cuts it).
	Command string
	// SessionID is the child session of a subagent's request ("" for the
	// session's own) and Agent its label ("Explore"): the queue shows
	// "[Explore] Bash: ...", the answer goes to the same global queue
	// (reduce_subagents.go).
	SessionID, Agent string
	// Candidate is set for a memory or skill candidate (reduce_candidates.go):
	// RequestID is then candidateKey(its ID), no tool call waits on it, and it
	// is answered through the Backend's DecideCandidate, not Resolve.
	Candidate *event.CandidateProposedData
}

// Turn states of the status line.
const (
	TurnIdle      = "idle"
	TurnRunning   = "running"
	TurnCompleted = "completed"
	TurnFailed    = "failed"
	TurnCancelled = "cancelled"
)

// Status is what the status line shows, as far as the event log tells it
// (the permission mode in force is the backend's, which the workbench adds:
// Mode here is only the session's latest mode.changed).
type Status struct {
	Session     string
	Cwd         string
	Model       string
	Turn        string // one of the Turn* constants
	TurnDetail  string // stop reason, failure reason
	TurnID      string
	TurnStarted time.Time
	Turns       int
	// BranchOf is the session a conversation rewind branched this one from
	// (its session.created names it), "" for any other session.
	BranchOf string
	// Token counts summed over the session's model calls.
	InputTokens, OutputTokens, CacheReadTokens, CacheWriteTokens int64
	// CostUSD sums the known costs; CostUnknown is set once a model call
	// reported none, and then the total is shown as unknown.
	CostUSD     float64
	CostUnknown bool
	// ModelCalls counts the usage events (one a model call): 0 means no
	// cost is known yet, not that it is zero.
	ModelCalls int
	// LastContextTokens is the prompt size of the latest model call (input
	// plus cached tokens): the context in use.
	LastContextTokens int64
	// ContextWindow is the model's context window in tokens (0: unknown) as
	// the latest model.changed or usage event reported it; WindowReported
	// says one did.
	ContextWindow  int64
	WindowReported bool
	// Mode is the permission mode the latest mode.changed put in force (""
	// before any).
	Mode string
}

// Notice is a notice event, kept for the status line and the transcript.
type Notice struct {
	Level, Source, Message string
	Sequence               uint64
}

// Model is everything the workbench shows, derived from the event log alone
// by Apply. It is not safe for concurrent use: the workbench keeps it on the
// event loop.
type Model struct {
	// Blocks is the transcript, in order of first appearance.
	Blocks []transcript.Block
	// Timeline holds every tool call of the session, in order of first
	// appearance.
	Timeline []ToolEntry
	// Approvals is the queue of pending requests, oldest first.
	Approvals []PendingApproval
	// History is every permission request of the session with its outcome,
	// in request order.
	History []ApprovalRecord
	Status  Status
	Notices []Notice
	// Todos is the latest TodoWrite list (reduce_todos.go).
	Todos todoList
	// Shells are the session's background shells (reduce_shells.go).
	Shells []ShellEntry
	// LastSequence is the sequence of the last event applied.
	LastSequence uint64
	// Checkpoint is the Seq of the last checkpoint.recorded applied: the
	// workspace as it was at LastSequence is the session's start plus
	// checkpoints 1..Checkpoint (app.DiffSpan.Through; reduce_checkpoints.go).
	Checkpoint uint64

	subs subagentState // the session's subagents and their models (reduce_subagents.go)

	blockIndex   map[string]int
	toolIndex    map[string]int
	historyIndex map[string]int
	touched      []string // IDs of blocks changed since the last TakeTouched
	touchedSet   map[string]bool
}

// NewModel returns an empty model.
func NewModel() *Model {
	return &Model{blockIndex: map[string]int{}, toolIndex: map[string]int{}, historyIndex: map[string]int{},
		touchedSet: map[string]bool{}, Status: Status{Turn: TurnIdle}}
}

// Block returns the transcript block with that ID.
func (m *Model) Block(id string) (transcript.Block, bool) {
	i, ok := m.blockIndex[id]
	if !ok {
		return transcript.Block{}, false
	}
	return m.Blocks[i], true
}

// Tool returns the timeline entry of a tool call.
func (m *Model) Tool(toolCallID string) (ToolEntry, bool) {
	i, ok := m.toolIndex[toolCallID]
	if !ok {
		return ToolEntry{}, false
	}
	return m.Timeline[i], true
}

// Approval returns the pending request with that ID.
func (m *Model) Approval(requestID string) (PendingApproval, bool) {
	for _, a := range m.Approvals {
		if a.RequestID == requestID {
			return a, true
		}
	}
	return PendingApproval{}, false
}

// TakeTouched returns the IDs of the blocks changed since the previous call,
// in the order they were first changed, and forgets them. It is how the
// transcript view is kept in step without rescanning every block; it does not
// change what the model holds.
func (m *Model) TakeTouched() []string {
	out := m.touched
	m.touched = nil
	clear(m.touchedSet)
	return out
}

// upsertBlock adds or replaces a block and marks it touched.
func (m *Model) upsertBlock(b transcript.Block) {
	if i, ok := m.blockIndex[b.ID]; ok {
		m.Blocks[i] = b
	} else {
		m.blockIndex[b.ID] = len(m.Blocks)
		m.Blocks = append(m.Blocks, b)
	}
	m.touch(b.ID)
}

// updateBlock changes an existing block in place; false when there is none.
func (m *Model) updateBlock(id string, f func(*transcript.Block)) bool {
	i, ok := m.blockIndex[id]
	if !ok {
		return false
	}
	f(&m.Blocks[i])
	m.touch(id)
	return true
}

func (m *Model) touch(id string) {
	if !m.touchedSet[id] {
		m.touchedSet[id] = true
		m.touched = append(m.touched, id)
	}
}

// tool returns the timeline entry of a call, creating it when missing.
func (m *Model) tool(id string) *ToolEntry {
	i, ok := m.toolIndex[id]
	if !ok {
		i = len(m.Timeline)
		m.toolIndex[id] = i
		m.Timeline = append(m.Timeline, ToolEntry{ToolCallID: id, Status: ToolPending})
	}
	return &m.Timeline[i]
}

// removeApproval drops a request from the queue; false when it was not there.
func (m *Model) removeApproval(requestID string) bool {
	for i, a := range m.Approvals {
		if a.RequestID == requestID {
			m.Approvals = append(m.Approvals[:i:i], m.Approvals[i+1:]...)
			return true
		}
	}
	return false
}
