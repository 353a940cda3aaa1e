package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"pincer/core/event"
)

// maxReminderTurns bounds the turns a child runs for messages that arrived
// as its turn ended.
const maxReminderTurns = 3

// startChild builds the child of req through the Spawner, registers its run
// and announces it in the parent's log (subagent.started, of the parent's
// turn parentTurn). A foreground run's context is the tool call's (cancelling
// the parent's turn cancels it); a background run's outlives the call and is
// cancelled by Subagents.Cancel or by the parent's turn being cancelled
// (turn.run).
func (a *Agent) startChild(ctx context.Context, req SpawnRequest, parentTurn string) (*childRun, error) {
	if a.cfg.Spawner == nil {
		return nil, errors.New("this agent cannot start subagents")
	}
	sp, err := a.cfg.Spawner.Spawn(ctx, req)
	if err != nil {
		return nil, err
	}
	base := ctx
	if req.Background {
		base = context.WithoutCancel(ctx)
	}
	runCtx, cancel := context.WithCancelCause(base)
	r := &childRun{
		info: ChildInfo{SessionID: sp.Session.ID, ParentSessionID: req.ParentSessionID, ToolCallID: req.ToolCallID,
			AgentType: req.AgentType, Description: req.Description, Background: req.Background,
			Worktree: sp.Worktree, Branch: sp.Branch, Team: req.Team, Member: req.Member,
			StartedAt: time.Now(), Running: true},
		agent: sp.Agent, parent: a, ctx: runCtx, cancel: cancel, done: make(chan struct{}), finishFn: sp.Finish,
		model: sp.Model,
	}
	if r.model == "" {
		r.model = req.ParentModel
	}
	a.subagents.add(r)
	for _, n := range sp.Notes {
		_, _ = a.log.Emit(context.WithoutCancel(ctx), event.Notice, req.ParentSessionID, parentTurn,
			event.NoticeData{Level: "warning", Source: "subagent", Message: req.AgentType + ": " + n})
	}
	_, _ = a.log.Emit(context.WithoutCancel(ctx), event.SubagentStarted, req.ParentSessionID, parentTurn, event.SubagentStartedData{
		ToolCallID: req.ToolCallID, ChildSessionID: sp.Session.ID, AgentType: req.AgentType, Description: req.Description,
		Background: req.Background, Worktree: sp.Worktree, Branch: sp.Branch, Team: req.Team, Member: req.Member,
	})
	return r, nil
}

// runChild runs one turn of the child with prompt, then announces the end in the parent's log (subagent.completed,
// of turn parentTurn: "" for a background run, which may end between the
// parent's turns) and, for a background run, reminds the parent of the result
// (its next model call gets it). It returns the result.
func (a *Agent) runChild(r *childRun, prompt, parentTurn string) ChildResult {
	start := time.Now()
	ctx := r.ctx
	tr, err := r.agent.SubmitTurnInput(ctx, r.info.SessionID, TurnInput{Text: prompt, Model: r.model})
	calls, usage := tr.Iterations, tr.Usage
	// A message delivered as the turn ended (Subagents.Deliver) gets a turn.
	for range maxReminderTurns {
		if err != nil || tr.Outcome != OutcomeCompleted || !r.agent.HasReminders(r.info.SessionID) {
			break
		}
		tr, err = r.agent.SubmitTurnInput(ctx, r.info.SessionID, TurnInput{Reminders: true, Model: r.model})
		calls += tr.Iterations
		usage.Add(tr.Usage)
	}
	// The child's background shells end with its run: only its own calls
	// could read or end them, and there are none left.
	r.agent.EndSessionShells(r.info.SessionID)
	res := ChildResult{ChildInfo: r.info, Outcome: tr.Outcome, Err: tr.Err, Text: tr.FinalText,
		ModelCalls: calls, Usage: usage}
	switch {
	case err != nil && ctx.Err() != nil: // cancelled before its turn started
		res.Outcome, res.Err = OutcomeCancelled, err
		r.agent.markEnded(context.WithoutCancel(ctx), r.info.SessionID, "cancelled")
	case err != nil:
		res.Outcome, res.Err = OutcomeFailed, err
	}
	bg := context.WithoutCancel(ctx)
	if r.finishFn != nil {
		fctx, cancel := context.WithTimeout(bg, 30*time.Second)
		stat, ferr := r.finishFn(fctx)
		cancel()
		res.DiffStat = stat
		if ferr != nil {
			res.DiffStat = "(the worktree's diff stat failed: " + ferr.Error() + ")"
		}
	}
	res.Duration = time.Since(start)
	res.Running = false
	text := childResultText(res)
	errText := ""
	if res.Err != nil {
		errText = res.Err.Error()
	}
	_, _ = a.log.Emit(bg, event.SubagentCompleted, r.info.ParentSessionID, parentTurn, event.SubagentCompletedData{
		ToolCallID: r.info.ToolCallID, ChildSessionID: r.info.SessionID, AgentType: r.info.AgentType,
		Outcome: string(res.Outcome), Result: text, Error: errText, Background: r.info.Background,
		ModelCalls: res.ModelCalls, InputTokens: res.Usage.InputTokens, OutputTokens: res.Usage.OutputTokens,
		DurationMs: res.Duration.Milliseconds(), Branch: r.info.Branch, DiffStat: res.DiffStat,
	})
	if r.info.Background {
		a.Remind(r.info.ParentSessionID, backgroundDoneText(res))
	}
	r.cancel(nil)
	a.subagents.finish(r, res)
	return res
}

// markEnded sets a child session that no turn ended (its run was cancelled
// before its turn started) to status, so it is not listed as idle or running.
func (a *Agent) markEnded(ctx context.Context, id, status string) {
	sess, err := a.cfg.Store.GetSession(ctx, id)
	if err != nil || sess.Status == status {
		return
	}
	sess.Status, sess.UpdatedAt = status, time.Now().UTC()
	_ = a.cfg.Store.PutSession(ctx, sess)
}

// childResultText is the tool result the parent receives for a subagent run
// (and a background run's reminder), as Claude Code's: the child's final text,
// then its ID and usage — every step stays in the child session. A run that
// did not complete says how it ended first.
func childResultText(res ChildResult) string {
	var b strings.Builder
	switch res.Outcome {
	case OutcomeCompleted:
	case OutcomeCancelled:
		b.WriteString("The subagent was cancelled before it finished.\n")
	default:
		reason := "it failed"
		if res.Err != nil {
			reason = res.Err.Error()
		}
		fmt.Fprintf(&b, "The subagent did not finish: %s\n", reason)
	}
	text := strings.TrimSpace(res.Text)
	switch {
	case text != "" && res.Outcome != OutcomeCompleted:
		b.WriteString("Its last message:\n" + text + "\n")
	case text != "":
		b.WriteString(text + "\n")
	case res.Outcome == OutcomeCompleted:
		b.WriteString("(The subagent ended without a final message.)\n")
	}
	fmt.Fprintf(&b, "\nagentId: %s", res.SessionID)
	if res.Branch != "" {
		fmt.Fprintf(&b, "\nworktree: %s\nbranch: %s", res.Worktree, res.Branch)
		if strings.TrimSpace(res.DiffStat) == "" {
			b.WriteString("\nchanges: none")
		} else {
			b.WriteString("\nchanges:\n" + strings.TrimRight(res.DiffStat, "\n"))
		}
	}
	fmt.Fprintf(&b, "\n<usage>model_calls: %d\ninput_tokens: %d\noutput_tokens: %d\nduration_ms: %d</usage>",
		res.ModelCalls, res.Usage.InputTokens, res.Usage.OutputTokens, res.Duration.Milliseconds())
	return b.String()
}

// backgroundStartedText is the tool result of a background Agent call.
func backgroundStartedText(c ChildInfo) string {
	return fmt.Sprintf("Background agent started: %s (%s: %s).\nagentId: %s\n"+
		"Its result arrives in a system reminder when it finishes; do not do its work yourself meanwhile.",
		c.SessionID, c.AgentType, c.Description, c.SessionID)
}

// backgroundDoneText is the reminder a background run's end gives its parent.
func backgroundDoneText(res ChildResult) string {
	return fmt.Sprintf("Background agent %s (%s: %s) %s. Its result:\n%s",
		res.SessionID, res.AgentType, res.Description, res.Outcome, childResultText(res))
}
