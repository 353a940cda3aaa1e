package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/persist"
)

// Outcome is how a turn ended.
type Outcome string

// Turn outcomes; each is announced by its own event.
const (
	OutcomeCompleted Outcome = "completed" // turn.completed
	OutcomeFailed    Outcome = "failed"    // turn.failed
	OutcomeCancelled Outcome = "cancelled" // turn.cancelled
)

// TurnResult sums up a finished turn. Err is set when Outcome is failed or cancelled.
type TurnResult struct {
	SessionID  string
	TurnID     string
	Outcome    Outcome
	StopReason string // turn.completed's stopReason; turn.failed's reason otherwise
	Err        error
	FinalText  string // the last assistant message's text
	Iterations int    // model calls made
	Usage      message.Usage
}

// errLeaseLost is the cancellation cause when the lease heartbeat fails.
var errLeaseLost = errors.New("session lease lost to another process")

// SubmitTurn runs one turn of the session with the user's input. It returns an error
// (and starts nothing) when a precondition fails: ErrNoProvider, ErrTurnActive,
// ErrLeaseHeld, or a store error. Otherwise it runs the turn to its end and reports
// how it ended in the TurnResult; cancelling ctx cancels the turn.
func (a *Agent) SubmitTurn(ctx context.Context, sessionID, input string) (TurnResult, error) {
	return a.submit(ctx, sessionID, TurnInput{Text: input})
}

// submit is SubmitTurn and SubmitTurnInput.
func (a *Agent) submit(ctx context.Context, sessionID string, in TurnInput) (TurnResult, error) {
	if a.currentProvider() == nil {
		return TurnResult{}, a.noProvider()
	}
	if err := ctx.Err(); err != nil {
		return TurnResult{}, fmt.Errorf("turn not started: %w", err)
	}
	sess, err := a.cfg.Store.GetSession(ctx, sessionID)
	if err != nil {
		return TurnResult{}, fmt.Errorf("session %s: %w", sessionID, err)
	}
	a.mu.Lock()
	if a.active[sessionID] {
		a.mu.Unlock()
		return TurnResult{}, fmt.Errorf("%w: %s", ErrTurnActive, sessionID)
	}
	a.active[sessionID] = true
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		delete(a.active, sessionID)
		a.mu.Unlock()
	}()

	if err := a.acquireLease(ctx, sessionID); err != nil {
		return TurnResult{}, err
	}
	turnCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stopBeat := a.heartbeat(turnCtx, sessionID, cancel)
	defer func() {
		stopBeat()
		// Release with a fresh context: the turn's may be cancelled.
		rctx, rcancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer rcancel()
		_ = a.cfg.Store.ReleaseLease(rctx, sessionID, a.owner)
	}()

	t := &turn{a: a, sess: sess, id: "turn-" + newID(), input: expandCommand(in.Text), typed: in.Text, extra: in}
	res := t.run(turnCtx)
	return res, nil
}

// turn is the state of one running turn.
type turn struct {
	a     *Agent
	sess  persist.Session
	id    string
	input string
	typed string          // the line as sent (turn.started, the title)
	extra TurnInput       // a /NAME invocation's extras (turninput.go)
	ctx   context.Context // the turn's context, for what start runs (a /NAME's commands)

	msgs       []message.Message // the stored transcript, kept in step with the store
	seen       map[string]bool   // name + args of tool calls made in this turn
	usage      message.Usage
	iter       int
	finalText  string
	stopReason string

	rules         permission.RuleSet // config, flag and session rules in force
	promptContext string             // UserPromptSubmit hooks' context for the model
	hookStop      string             // set when a hook said "continue": false
	stopBlocks    int                // how often Stop hooks sent the model back

	recent []string // signatures of the latest tool calls, for loop detection
	ratio  float64  // reported input tokens / estimate, for the last call

	dyn, instr     string // dynamic prompt and instructions, read once per ctxKey
	ctxKey         ctxKey
	ctxRead        bool
	retriedContext bool // a context-length refusal was already compacted and retried

	// The text protocol (textproto.go): the last answer was in neither form,
	// and how many corrective messages this turn sent.
	malformed     bool
	malformedSent int

	// Deferred tools (deferred.go): the names this session loaded, how far
	// t.msgs was scanned for them, and the offer of model call offerIter.
	loaded     map[string]bool
	loadedScan int
	cur        offer
	offerIter  int
	offerRead  bool
}

// emit appends an event of this turn. Store errors are returned.
func (t *turn) emit(ctx context.Context, typ event.Type, p any) error {
	_, err := t.a.log.Emit(ctx, typ, t.sess.ID, t.id, p)
	return err
}

// save appends a message to the store and to the in-memory transcript.
func (t *turn) save(ctx context.Context, m message.Message) (message.Message, error) {
	m.SessionID = t.sess.ID
	m.TurnID = t.id
	if m.CreatedAt.IsZero() {
		m.CreatedAt = time.Now().UTC()
	}
	stored, err := t.a.cfg.Store.AppendMessage(ctx, m)
	if err != nil {
		return message.Message{}, fmt.Errorf("store message: %w", err)
	}
	t.msgs = append(t.msgs, stored)
	return stored, nil
}

// run executes the turn and always ends it with exactly one terminal event.
func (t *turn) run(ctx context.Context) TurnResult {
	// Bookkeeping writes must land even when the turn is cancelled.
	bg := context.WithoutCancel(ctx)
	res := TurnResult{SessionID: t.sess.ID, TurnID: t.id}
	t.ctx = ctx
	if d := t.a.cfg.Diagnostics; d != nil {
		d.TurnStarted(t.sess.ID)
	}
	err := t.start(bg)
	if err == nil {
		err = t.loop(ctx, bg)
	}
	if err == nil {
		t.observe(ctx, bg) // before turn.completed: what it records is the turn's
	}
	res.Iterations, res.Usage, res.FinalText = t.iter, t.usage, t.finalText
	status := "idle"
	switch {
	case err == nil:
		res.Outcome, res.StopReason = OutcomeCompleted, t.stopReason
		_ = t.emit(bg, event.TurnCompleted, event.TurnCompletedData{StopReason: t.stopReason})
	case isBlocked(err):
		res.Outcome, res.StopReason, res.Err = OutcomeFailed, event.ReasonBlocked, err
		_ = t.emit(bg, event.TurnFailed, event.TurnFailedData{Error: err.Error(), Reason: event.ReasonBlocked})
	case isCancel(ctx, err):
		reason := "cancelled by user"
		if errors.Is(context.Cause(ctx), errLeaseLost) {
			status = "failed"
			res.Outcome, res.StopReason, res.Err = OutcomeFailed, event.ReasonLeaseLost, errLeaseLost
			_ = t.emit(bg, event.TurnFailed, event.TurnFailedData{Error: errLeaseLost.Error(), Reason: event.ReasonLeaseLost})
			break
		}
		status = "cancelled"
		t.a.subagents.cancelChildren(t.sess.ID) // its background children end with it
		res.Outcome, res.StopReason, res.Err = OutcomeCancelled, "cancelled", context.Canceled
		var sc *StopCause // a signal's cause names it ("terminal closed (SIGHUP)")
		if errors.As(context.Cause(ctx), &sc) {
			reason, res.Err = sc.Reason, sc
		}
		_ = t.emit(bg, event.TurnCancelled, event.TurnCancelledData{Reason: reason})
	default:
		status = "failed"
		reason := event.ReasonInternal
		var pe *provider.Error
		switch {
		case errors.Is(err, errMaxIterations):
			reason = event.ReasonMaxIterations
		case errors.Is(err, errLoop):
			reason = event.ReasonLoop
		case errors.As(err, &pe):
			reason = event.ReasonProvider
		}
		res.Outcome, res.StopReason, res.Err = OutcomeFailed, reason, err
		_ = t.emit(bg, event.TurnFailed, event.TurnFailedData{Error: err.Error(), Reason: reason})
	}
	t.sess.Status = status
	t.sess.UpdatedAt = time.Now().UTC()
	_ = t.a.cfg.Store.PutSession(bg, t.sess)
	return res
}

// isCancel reports whether err comes from the turn's context ending.
func isCancel(ctx context.Context, err error) bool {
	return ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, errLeaseLost) || errors.Is(err, errInterrupted))
}

// start announces the turn and stores the system message (first turn only) and the
// user message, before any model call.
func (t *turn) start(ctx context.Context) error {
	if err := t.emit(ctx, event.TurnStarted, event.TurnStartedData{Input: t.startedInput()}); err != nil {
		return err
	}
	msgs, err := t.a.cfg.Store.ListMessages(ctx, t.sess.ID)
	if err != nil && !errors.Is(err, persist.ErrCorrupt) { // a corrupt record is skipped, the rest kept
		return fmt.Errorf("load transcript: %w", err)
	}
	t.warnTorn(ctx, err)
	t.msgs = msgs
	if len(msgs) > 0 {
		t.a.closeAbandonedChildren(ctx, t.sess.ID) // a process killed mid-subagent left them open
	}
	if len(msgs) == 0 {
		if sp := t.a.newSessionPrompt(); sp != "" {
			if _, err := t.save(ctx, message.NewText(message.RoleSystem, sp)); err != nil {
				return err
			}
		}
	}
	t.loadRules(ctx)
	if _, ok := isCompactCommand(t.input); ok && !t.extra.Reminders {
		return nil // a command, not a prompt: nothing is stored (see loop)
	}
	if t.extra.Reminders {
		return t.startReminders(ctx)
	}
	if reason, _ := t.promptBlocked(ctx); reason != "" {
		return &blockedError{reason}
	}
	if err := t.expandInput(t.ctx, ctx); err != nil {
		return err
	}
	for _, c := range t.a.takePending(t.sess.ID) {
		if _, err := t.save(ctx, reminder(c)); err != nil {
			return err
		}
	}
	if _, err := t.save(ctx, message.NewText(message.RoleUser, t.input)); err != nil {
		return err
	}
	if t.promptContext != "" {
		if _, err := t.save(ctx, reminder(t.promptContext)); err != nil {
			return err
		}
	}
	t.sess.Status = "running"
	t.sess.UpdatedAt = time.Now().UTC()
	if name := t.a.modelName(); name != "" {
		t.sess.Model = name // the model this turn runs on (a switch sticks)
	}
	if t.sess.Title == "" {
		t.sess.Title = firstLine(t.startedInput(), 80)
	}
	return t.a.cfg.Store.PutSession(ctx, t.sess)
}

var errMaxIterations = errors.New("maximum agent iterations reached")

// loop calls the model until it answers without tool calls, the budget runs out, or
// the turn is cancelled. ctx is the turn's; bg outlives cancellation for bookkeeping.
func (t *turn) loop(ctx, bg context.Context) error {
	t.seen = map[string]bool{}
	if focus, ok := isCompactCommand(t.input); ok {
		t.stopReason = "compacted"
		return t.compact(ctx, bg, "manual", focus)
	}
	for t.iter < t.a.cfg.MaxIterations {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := t.a.takeBudget(t.sess.ID); err != nil { // a team member's share of its team's calls
			return err
		}
		t.iter++
		if err := t.deliverReminders(bg); err != nil {
			return err
		}
		if err := t.maybeCompact(ctx, bg); err != nil {
			t.notice(bg, "warning", "compaction", err.Error())
		}
		calls, err := t.callModel(ctx, bg)
		calls, err = t.retryMalformed(ctx, bg, calls, err)
		if isContextLength(err) && !t.retriedContext && ctx.Err() == nil {
			// One compaction and one retry, not a loop.
			t.retriedContext = true
			if cerr := t.compact(ctx, bg, "context_length", ""); cerr != nil {
				return errors.Join(err, cerr)
			}
			calls, err = t.callModel(ctx, bg)
		}
		if toolsRefused(err) && !t.a.textProtocol() && ctx.Err() == nil {
			calls, err = t.switchToText(ctx, bg, err)
		}
		if err != nil {
			return err
		}
		if len(calls) == 0 && t.malformed {
			if t.malformedSent < malformedRetries {
				t.malformedSent++
				if _, err := t.save(bg, message.NewText(message.RoleUser, malformedMessage)); err != nil {
					return err
				}
				continue
			}
			t.notice(bg, "warning", "protocol", fmt.Sprintf("the model answered in neither form (command:/text:) %d times; its last answer is taken as the final one", malformedRetries+1))
		}
		if len(calls) == 0 && t.stopReason == stopPauseTurn {
			continue // the reply, stored as sent, goes back and the model carries on (serversearch.go)
		}
		if len(calls) == 0 {
			feedback := t.stopHooks(bg)
			if feedback == "" {
				return nil
			}
			if _, err := t.save(bg, message.NewText(message.RoleUser, feedback)); err != nil {
				return err
			}
			continue
		}
		if err := t.runToolCalls(ctx, bg, calls); err != nil {
			return err
		}
		if sig, looping := t.loopCheck(calls); looping {
			return fmt.Errorf("%w: %s was called %d times in the last %d tool calls; ended the turn instead of burning its budget",
				errLoop, sig, loopRepeats, loopWindow)
		}
		if t.hookStop != "" {
			t.stopReason = "stopped_by_hook"
			return nil
		}
	}
	return fmt.Errorf("%w (%d model calls); raise it with --max-turns", errMaxIterations, t.a.cfg.MaxIterations)
}

// firstLine returns s's first line, cut to max runes.
func firstLine(s string, max int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	r := []rune(s)
	if len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

// blockedError is a prompt refused by a UserPromptSubmit hook.
type blockedError struct{ reason string }

func (e *blockedError) Error() string { return "prompt blocked by a hook: " + e.reason }

func isBlocked(err error) bool {
	var b *blockedError
	return errors.As(err, &b)
}

// promptBlocked runs the UserPromptSubmit hooks; a refused prompt is not stored.
func (t *turn) promptBlocked(ctx context.Context) (string, error) {
	reason, extra := t.promptHooks(ctx)
	t.promptContext = extra
	return reason, nil
}

// Loop detection: the same tool call (name and arguments) loopRepeats times among the
// last loopWindow calls ends the turn.
const (
	loopRepeats = 5
	loopWindow  = 10
)

var errLoop = errors.New("loop detected")

// loopCheck records calls and reports a signature repeated loopRepeats times in the
// window, shortened for the message.
func (t *turn) loopCheck(calls []message.Part) (string, bool) {
	for _, c := range calls {
		t.recent = append(t.recent, c.ToolName+" "+c.Input)
	}
	if len(t.recent) > loopWindow {
		t.recent = t.recent[len(t.recent)-loopWindow:]
	}
	counts := map[string]int{}
	for _, s := range t.recent {
		counts[s]++
		if counts[s] >= loopRepeats {
			return firstLine(s, 80), true
		}
	}
	return "", false
}

// newSessionPrompt is the system message a new session stores:
// Config.NewSessionPrompt's, else Config.SystemPrompt.
func (a *Agent) newSessionPrompt() string {
	if a.cfg.NewSessionPrompt != nil {
		if sp := a.cfg.NewSessionPrompt(); sp != "" {
			return sp
		}
	}
	return a.cfg.SystemPrompt
}

// noProvider is SubmitTurn's error without a provider: ErrNoProvider, with
// Config.NoProvider's reason when there is one.
func (a *Agent) noProvider() error {
	if a.cfg.NoProvider != nil {
		return noProviderError{a.cfg.NoProvider}
	}
	return ErrNoProvider
}

// noProviderError is ErrNoProvider with its reason: "no model: REASON".
type noProviderError struct{ reason error }

func (e noProviderError) Error() string        { return "no model: " + e.reason.Error() }
func (e noProviderError) Is(target error) bool { return target == ErrNoProvider }
func (e noProviderError) Unwrap() error        { return e.reason }
