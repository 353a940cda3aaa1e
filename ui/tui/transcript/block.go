// Package transcript is pincer's virtualised transcript pane: a tview
// primitive that shows a session's messages, reasoning and tool calls as a
// list of blocks. It never holds the session in one TextView.
//
// Contract:
//   - Content is a list of Blocks keyed by a stable ID. Upsert adds or
//     replaces one; AppendText grows one's Text in amortised O(delta).
//   - Draw touches only the rows that are visible and writes each inner cell
//     exactly once. Blocks are laid out (wrapped, markdown rendered) per
//     content width, lazily: only blocks that are drawn or scrolled over are
//     ever rendered.
//   - A block marked Done is frozen: it is rendered at most once per width,
//     and the renderings for the two most recent widths are kept (zooming a
//     pane back and forth re-renders nothing). Collapsing or expanding never
//     re-renders.
//   - A growing block keeps the rendering of its finished part (up to the
//     last paragraph break for markdown, the last newline for plain text) and
//     re-renders only the rest; finishing it (Done) renders it once whole.
//   - The scroll position is an anchor, a block and a row inside it, not a
//     global row number: a width change keeps the anchor and re-wraps only
//     the blocks the next frame needs. There is no index over all heights.
//   - Follow mode (on by default) keeps the bottom in view as content grows;
//     scrolling up turns it off, scrolling to the end or G turns it back on.
//   - All methods lock the view, so they may be called from any goroutine;
//     redrawing stays the application's job.
package transcript

// Kind says what a block is and how it is drawn.
type Kind int

// Block kinds.
const (
	// KindUser is a message typed by the person: plain text with a bar prefix.
	KindUser Kind = iota
	// KindAssistant is model text: markdown.
	KindAssistant
	// KindReasoning is model reasoning: dimmed, collapsible.
	KindReasoning
	// KindTool is a tool call: a one-line entry with a status icon that
	// expands to show its output.
	KindTool
	// KindNotice is an informational line from pincer itself.
	KindNotice
	// KindError is an error shown in the transcript.
	KindError
)

// String returns the kind's name.
func (k Kind) String() string {
	switch k {
	case KindUser:
		return "user"
	case KindAssistant:
		return "assistant"
	case KindReasoning:
		return "reasoning"
	case KindTool:
		return "tool"
	case KindNotice:
		return "notice"
	case KindError:
		return "error"
	}
	return "unknown"
}

// Tool statuses understood by the view (Block.Status of a KindTool block).
const (
	StatusPending = "pending"
	// StatusReceiving: the model is still streaming the call's arguments.
	StatusReceiving = "receiving arguments"
	StatusApproval  = "awaiting approval"
	StatusRunning   = "running"
	StatusDone      = "done"
	StatusFailed    = "failed"
	StatusDenied    = "denied"
	// StatusUnanswered: its approval request was never answered (the turn
	// was cancelled, or the workbench quit); nothing ran.
	StatusUnanswered = "not answered (turn cancelled)"
	// StatusInterrupted: the call's turn ended (or its process died) before
	// it finished or before its approval was answered.
	StatusInterrupted = "interrupted"
)

// Block is one entry of the transcript.
type Block struct {
	// ID is stable for the life of the entry: a message ID, a tool call ID.
	ID string
	// Kind decides how the block is drawn.
	Kind Kind
	// Title is one line: a tool summary ("Read main.go  12ms") or a header.
	Title string
	// Status is a tool's state: "pending", "awaiting approval", "running",
	// "done", "failed", "denied" or "interrupted".
	Status string
	// StatusNote follows the status word of a tool line that shows one
	// ("(plan mode)" after "denied"); "" for none.
	StatusNote string
	// Text is the body: markdown for assistant blocks, plain text otherwise
	// (tool output is capped in the view).
	Text string
	// Collapsed shows only the title line. Reasoning and tool blocks should
	// start collapsed.
	Collapsed bool
	// Done marks a finished block: its rendering is frozen (cached per width).
	Done bool
	// OutputLines is a tool's whole output line count when Text is a cut of it
	// (the tool cut it before it reached the view); 0: Text is all of it.
	OutputLines int
}
