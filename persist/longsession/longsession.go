// Package longsession writes a long, finished session into a store, as a real
// one would have left it: the session record, its transcript and its event
// log. It is the fixture of the resume benchmarks (issue 19: `pincer
// --continue` on a 2,000- and a 10,000-message session) — ui/tui's
// BenchmarkResume and core/app/internal/longsession, the program that fills
// the store of a PINCER_HOME for a whole-process side-by-side.
package longsession

import (
	"context"
	"fmt"
	"strings"
	"time"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/persist"
)

// Options says what session to write.
type Options struct {
	// ID is the session's id; "" makes one as the agent does
	// ("20060102-150405-xxxxxxxx" from Start).
	ID string
	// Cwd is the session's directory (--continue picks the newest session of
	// the directory it runs in).
	Cwd string
	// Model is the session's model ("" is "fake/m").
	Model string
	// Messages is how many transcript messages to write (at least 2; an odd
	// count is rounded up, a turn being whole: Result.Messages says). Every
	// turn is a user prompt and a markdown answer (2 messages); every fifth
	// turn the answer first calls Bash (approved by a person), whose result
	// is a tool message, and then answers: 4 messages.
	Messages int
	// Start is the time of the first event (zero: an hour before now); each
	// event comes one millisecond after the one before.
	Start time.Time
}

// Result is what Write stored.
type Result struct {
	Session  persist.Session
	Messages int    // transcript messages stored
	Events   int    // events stored (the last one's sequence)
	Turns    int    // turns, all completed
	LastText string // the text of the last assistant message: what a complete screen ends with
}

// Write stores the session of opts in store. It numbers events itself
// (AppendEvent), so store must hold nothing under that session id yet.
func Write(ctx context.Context, store persist.Store, opts Options) (Result, error) {
	if opts.Messages < 2 {
		return Result{}, fmt.Errorf("longsession: %d messages: want at least 2", opts.Messages)
	}
	if opts.Model == "" {
		opts.Model = "fake/m"
	}
	if opts.Start.IsZero() {
		opts.Start = time.Now().UTC().Add(-time.Hour)
	}
	if opts.ID == "" {
		opts.ID = opts.Start.Format("20060102-150405") + "-" + fmt.Sprintf("%08x", opts.Start.UnixNano()&0xffffffff)
	}
	w := &writer{ctx: ctx, store: store, sid: opts.ID, now: opts.Start.UTC(), model: opts.Model}
	s := persist.Session{ID: opts.ID, Cwd: opts.Cwd, Model: opts.Model, Status: "idle",
		CreatedAt: w.now, UpdatedAt: w.now}
	if err := store.PutSession(ctx, s); err != nil {
		return Result{}, err
	}
	w.emit(event.SessionCreated, "", event.SessionCreatedData{Cwd: opts.Cwd, Model: opts.Model})
	res := Result{}
	for turn := 1; w.err == nil && res.Messages < opts.Messages; turn++ {
		withTool := turn%5 == 0 && opts.Messages-res.Messages >= 4
		res.Messages += w.turn(turn, withTool)
		res.Turns = turn
	}
	if w.err != nil {
		return Result{}, w.err
	}
	res.LastText = w.lastText
	s.Title, s.UpdatedAt = "Please do step 1 of the plan", w.now
	if err := store.PutSession(ctx, s); err != nil {
		return Result{}, err
	}
	res.Session, res.Events = s, int(w.seq)
	return res, nil
}

// writer appends one session's records, keeping the first error.
type writer struct {
	ctx      context.Context
	store    persist.Store
	sid      string
	model    string
	now      time.Time
	seq      uint64
	err      error
	lastText string
}

func (w *writer) tick() time.Time {
	w.now = w.now.Add(time.Millisecond)
	return w.now
}

func (w *writer) emit(t event.Type, turnID string, p any) {
	if w.err != nil {
		return
	}
	ev, err := event.New(t, w.sid, turnID, p)
	if err != nil {
		w.err = err
		return
	}
	w.seq++
	ev.Sequence, ev.Timestamp = w.seq, w.tick()
	w.err = w.store.AppendEvent(w.ctx, ev)
}

func (w *writer) message(m message.Message) {
	if w.err != nil {
		return
	}
	m.SessionID, m.CreatedAt = w.sid, w.tick()
	_, w.err = w.store.AppendMessage(w.ctx, m)
}

// turn writes turn n: 2 messages, or 4 with a Bash call; it returns how many.
func (w *writer) turn(n int, withTool bool) int {
	tid := fmt.Sprintf("turn-%06d", n)
	input := fmt.Sprintf("Please do step %d of the plan", n)
	w.emit(event.TurnStarted, tid, event.TurnStartedData{Input: input})
	w.message(message.Message{TurnID: tid, Role: message.RoleUser, Parts: []message.Part{{Type: message.PartText, Text: input}}})
	count := 1
	usage := func() {
		cost := 0.0012
		w.emit(event.UsageReported, tid, event.UsageData{InputTokens: 1200 + int64(n), OutputTokens: 180,
			CacheReadTokens: 800, CostUSD: &cost, ContextTokens: 2000 + int64(n), ContextWindow: 200000})
	}
	if withTool {
		mid, call := tid+"-a0", fmt.Sprintf("call-%06d", n)
		text := "I'll run the tests first."
		w.emit(event.MessageDelta, tid, event.MessageDeltaData{MessageID: mid, Delta: text, Kind: "text"})
		w.emit(event.MessageCompleted, tid, event.MessageCompletedData{MessageID: mid, Role: "assistant", Text: text,
			ToolCalls: []event.ToolCallRef{{ToolCallID: call, Name: "Bash"}}})
		input := `{"command":"go test ./..."}`
		w.message(message.Message{TurnID: tid, Role: message.RoleAssistant, Model: w.model, Parts: []message.Part{
			{Type: message.PartText, Text: text},
			{Type: message.PartToolCall, ToolCallID: call, ToolName: "Bash", Input: input}}})
		usage()
		req := "req-" + call
		w.emit(event.PermissionRequested, tid, event.PermissionRequestedData{RequestID: req, ToolCallID: call,
			Name: "Bash", Summary: "Bash: go test ./...", Reason: "Bash is not allowed by a rule", Command: "go test ./..."})
		w.emit(event.PermissionResolved, tid, event.PermissionResolvedData{RequestID: req, ToolCallID: call,
			Decision: "allow", Scope: "once", By: "user"})
		w.emit(event.ToolStarted, tid, event.ToolStartedData{ToolCallID: call, Name: "Bash", Input: input, Summary: "Bash: go test ./..."})
		var out strings.Builder
		for k := 0; k < 12; k++ {
			fmt.Fprintf(&out, "ok  \tpincer/pkg%d\t0.%03ds\n", k, 10+k)
		}
		w.emit(event.ToolCompleted, tid, event.ToolCompletedData{ToolCallID: call, Name: "Bash", Output: out.String(),
			DurationMs: 1200, Summary: "Bash: go test ./..."})
		w.message(message.NewToolResult(call, "Bash", out.String(), false))
		count += 2
	}
	mid := tid + "-a1"
	var md strings.Builder
	fmt.Fprintf(&md, "## Step %d\n\nDone. What changed:\n\n", n)
	for k := 0; k < 6; k++ {
		fmt.Fprintf(&md, "- item %d of step %d with **bold** and `code` text\n", k, n)
	}
	fmt.Fprintf(&md, "\nStep %d is complete.", n)
	text := md.String()
	half := len(text) / 2
	w.emit(event.MessageDelta, tid, event.MessageDeltaData{MessageID: mid, Delta: text[:half], Kind: "text"})
	w.emit(event.MessageDelta, tid, event.MessageDeltaData{MessageID: mid, Delta: text[half:], Kind: "text"})
	w.emit(event.MessageCompleted, tid, event.MessageCompletedData{MessageID: mid, Role: "assistant", Text: text})
	w.message(message.Message{TurnID: tid, Role: message.RoleAssistant, Model: w.model,
		Parts: []message.Part{{Type: message.PartText, Text: text}}})
	usage()
	w.emit(event.TurnCompleted, tid, event.TurnCompletedData{StopReason: "end_turn"})
	w.lastText = text
	return count + 1
}
