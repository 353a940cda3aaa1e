package event

// Payload structs, one per event type, with the field names of DESIGN.md.

// SessionCreatedData is the payload of session.created. A conversation
// rewind's branch names the session it branched from (BranchOf) before
// which turn (BranchTurn, from 1), and Inherited: how many of the events
// right after this one are copies of the origin's turns before BranchTurn
// (they keep their turn IDs and timestamps; app.inheritEvents).
type SessionCreatedData struct {
	Cwd        string `json:"cwd"`
	Model      string `json:"model"`
	BranchOf   string `json:"branchOf,omitempty"`
	BranchTurn int    `json:"branchTurn,omitempty"`
	Inherited  int    `json:"inherited,omitempty"`
}

// TurnStartedData is the payload of turn.started.
type TurnStartedData struct {
	Input string `json:"input"`
}

// MessageDeltaData is the payload of message.delta. Kind is "text" or "reasoning".
type MessageDeltaData struct {
	MessageID string `json:"messageId"`
	Delta     string `json:"delta"`
	Kind      string `json:"kind"`
}

// MessageCompletedData is the payload of message.completed. Interrupted is set when
// the message was cut short by a cancellation. ToolCalls are the tool calls the
// reply makes, in the model's order (the order their results go back in): views
// list them so even when parallel calls start and end in another order. Text and
// Reasoning are what views show: for a text-protocol answer (core/agent
// textproto.go) Text is the answer without its "text:" line's prefix and the
// lines before that line are Reasoning; the stored message keeps the reply as the
// model wrote it.
type MessageCompletedData struct {
	MessageID   string        `json:"messageId"`
	Role        string        `json:"role"`
	Text        string        `json:"text"`
	Reasoning   string        `json:"reasoning,omitempty"`
	Interrupted bool          `json:"interrupted,omitempty"`
	ToolCalls   []ToolCallRef `json:"toolCalls,omitempty"`
}

// ToolCallRef names one tool call of a reply: its id (as tool.started and
// tool.completed carry it) and the tool.
type ToolCallRef struct {
	ToolCallID string `json:"toolCallId"`
	Name       string `json:"name"`
}

// ToolReceivingData is the payload of tool.receiving: the call's id (as the
// provider named it: the tool.started of the call has the same id, unless the
// provider sent none yet, then "") and the tool's name.
type ToolReceivingData struct {
	ToolCallID string `json:"toolCallId"`
	Name       string `json:"name"`
}

// ToolStartedData is the payload of tool.started. Input is the call's JSON arguments.
type ToolStartedData struct {
	ToolCallID string `json:"toolCallId"`
	Name       string `json:"name"`
	Input      string `json:"input"`
	Summary    string `json:"summary"`
}

// ToolCompletedData is the payload of tool.completed. Diff is a unified diff for file
// changes, empty otherwise. Every tool call gets exactly one, including calls that
// never started (unknown tool, bad input, denial): those have DurationMs 0.
type ToolCompletedData struct {
	ToolCallID string `json:"toolCallId"`
	Name       string `json:"name"`
	Output     string `json:"output"`
	IsError    bool   `json:"isError"`
	DurationMs int64  `json:"durationMs"`
	Diff       string `json:"diff,omitempty"`
	// OutputLines is the line count of the tool's whole output when Output is
	// a cut of it (a long Bash output spilled to a file); 0: Output is whole.
	OutputLines int `json:"outputLines,omitempty"`
	// Summary is the call's one-line summary (as tool.started's: "Bash: rm -f
	// README.md"), also for a call that never started; "" when the input did
	// not parse.
	Summary string `json:"summary,omitempty"`
	// DeniedBy is who refused the call when the permission decision did (it
	// never ran): the decision's By — "mode:plan", "rule …", "hook", "user",
	// "hard-deny", … as the audit trail records it; "" when it was not refused.
	DeniedBy string `json:"deniedBy,omitempty"`
}

// PermissionRequestedData is the payload of permission.requested. For a tool
// that changes files (tools.Previewer: Edit, Write), Diff is the unified diff the
// call would make, computed by the tool itself before the decision (what
// tool.completed's Diff then shows when the call runs at once); when the tool
// says the call would fail, Diff is empty and PreviewError is that failure, the
// text the model would read (never a precondition failure of the tool, such as
// "not read yet": such a call fails without being asked, tools.CannotSucceed). Both are empty for other tools and both are
// redacted as tool results are.
type PermissionRequestedData struct {
	RequestID    string `json:"requestId"`
	ToolCallID   string `json:"toolCallId"`
	Name         string `json:"name"`
	Summary      string `json:"summary"`
	Reason       string `json:"reason"`
	Diff         string `json:"diff,omitempty"`
	PreviewError string `json:"previewError,omitempty"`
	// Command is the whole shell command of an execute call (Bash), as the
	// permission decision read it, uncut (Summary cuts it): what a person
	// approves. Empty for other tools.
	Command string `json:"command,omitempty"`
}

// ByUnanswered is the By of a permission.resolved denial (and of its audit
// entry) that nobody gave: the request's turn was cancelled, or its process
// quit, before a person answered. The call is denied (nothing runs), but it is
// not the person's decision.
const ByUnanswered = "unanswered"

// PermissionResolvedData is the payload of permission.resolved. Decision is allow or
// deny; Scope is once, session or always; By names who decided (mode, rule, user).
type PermissionResolvedData struct {
	RequestID  string `json:"requestId"`
	ToolCallID string `json:"toolCallId,omitempty"`
	Decision   string `json:"decision"`
	Scope      string `json:"scope"`
	Reason     string `json:"reason"`
	By         string `json:"by"`
}

// PermissionAnsweredData is the payload of permission.answered: a person's
// answer to request RequestID of the event's session, given in another
// process. Behavior is allow or deny, Scope once, session or always, Reason
// reaches the model on a denial, By names the answering process ("pid 4242 on
// HOST"). It is only an answer: the request is decided by the process running
// the turn, and only if it still waits for it (the first answer wins).
type PermissionAnsweredData struct {
	RequestID string `json:"requestId"`
	Behavior  string `json:"behavior"`
	Scope     string `json:"scope"`
	Reason    string `json:"reason,omitempty"`
	By        string `json:"by"`
}

// UsageData is the payload of usage: the tokens of one model call. CostUSD is null
// when the price is unknown. ContextTokens is how much of the context window the
// call's prompt used and ContextWindow the model's window (0: unknown), for a
// context-use percentage.
type UsageData struct {
	InputTokens      int64    `json:"inputTokens"`
	OutputTokens     int64    `json:"outputTokens"`
	CacheReadTokens  int64    `json:"cacheReadTokens"`
	CacheWriteTokens int64    `json:"cacheWriteTokens"`
	CostUSD          *float64 `json:"costUsd"`
	ContextTokens    int64    `json:"contextTokens"`
	ContextWindow    int64    `json:"contextWindow"`
}

// CompactionCompletedData is the payload of compaction.completed.
type CompactionCompletedData struct {
	BeforeTokens int64 `json:"beforeTokens"`
	AfterTokens  int64 `json:"afterTokens"`
}

// TurnCompletedData is the payload of turn.completed.
type TurnCompletedData struct {
	StopReason string `json:"stopReason"`
}

// Reasons a turn fails, as in turn.failed's reason field.
const (
	ReasonMaxIterations = "max_iterations"
	ReasonProvider      = "provider"
	ReasonLeaseLost     = "lease_lost"
	ReasonInternal      = "internal"
	// ReasonBlocked: a UserPromptSubmit hook refused the prompt (it is not stored).
	ReasonBlocked = "blocked"
	// ReasonLoop: the same tool call kept repeating (5 times in 10 calls).
	ReasonLoop = "loop"
)

// TurnFailedData is the payload of turn.failed.
type TurnFailedData struct {
	Error  string `json:"error"`
	Reason string `json:"reason"`
}

// TurnCancelledData is the payload of turn.cancelled.
type TurnCancelledData struct {
	Reason string `json:"reason"`
}

// NoticeData is the payload of notice. Level is info, warning or error; Source
// names what raised it ("hook", "config", "sandbox").
type NoticeData struct {
	Level   string `json:"level"`
	Source  string `json:"source"`
	Message string `json:"message"`
}

// ModeChangedData is the payload of mode.changed: the permission mode now in force
// (a permission.Mode: default, acceptEdits, plan, bypassPermissions, dontAsk) and
// the one before it.
type ModeChangedData struct {
	Mode     string `json:"mode"`
	Previous string `json:"previous"`
}

// ModelChangedData is the payload of model.changed: the model the session uses from
// its next model call ("openai/gpt-4.1"), the one before it, and the new model's
// context window in tokens (0: unknown).
type ModelChangedData struct {
	Model         string `json:"model"`
	Previous      string `json:"previous"`
	ContextWindow int64  `json:"contextWindow"`
}
