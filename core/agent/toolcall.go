package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"pincer/core/event"
	"pincer/core/hook"
	"pincer/core/message"
	"pincer/core/permission"
	"pincer/tools"
)

// Tool-result texts of calls that never ran.
const (
	duplicateResult   = "Duplicate tool call rejected: the same tool was already called with the same arguments in this turn; use the previous result instead."
	truncatedResult   = "Tool call was cut off: the response hit the output token limit before the arguments were complete, so it was not executed. Retry with a shorter input (for example, split a large Write into smaller Edits)."
	cancelledResult   = "Tool execution was interrupted: the turn was cancelled before this call finished."
	failedPrefix      = "Tool failed: "
	deniedPrefix      = "Permission denied: "
	hookBlockedPrefix = "Blocked by PreToolUse hook: "
)

// outcome is the result of one tool call, whether it ran or not.
type outcome struct {
	text       string
	isError    bool
	diff       string
	durationMs int64
	lines      int    // tools.Result.OutputLines
	deniedBy   string // who refused the call (event.ToolCompletedData.DeniedBy); "": not refused
}

// prepared is a tool call after lookup, duplicate check, JSON parse and schema
// validation. done is set when the call must not run (and says what the model gets).
type prepared struct {
	call    message.Part
	tool    tools.Tool
	input   json.RawMessage
	summary string
	done    *outcome
	// approvedPreview is set when a person approved this call after seeing its
	// would-be diff (tools.Env.ApprovedPreview: the tool writes only that change).
	approvedPreview bool
	// cannotSucceed is the tool's error (redacted) when permit did not ask
	// because the call's preview showed it cannot succeed: the call fails with
	// it as its tool result, as Run would.
	cannotSucceed string
	// personal is set when the person allowed this call themselves: they
	// approved it, or one of their own allow rules or bypassPermissions did
	// (turn.personsOwn). Such a call is not confined by a tainted workspace
	// (taintConfines) nor guarded as unvouched (tools.Env.Unvouched).
	personal bool
}

// prepare runs the checks that need no permission and touch nothing: lookup,
// truncation, duplicate check, JSON parse, schema validation, summary.
func (t *turn) prepare(c message.Part) *prepared {
	p := &prepared{call: c, summary: c.ToolName}
	fail := func(text string) *prepared {
		p.done = &outcome{text: text, isError: true}
		return p
	}
	tl, ok := t.lookupTool(c.ToolName)
	if !ok {
		return fail(fmt.Sprintf("%sunknown tool %q; available tools: %v", failedPrefix, c.ToolName, t.toolNames()))
	}
	p.tool = tl
	if t.cur.pending[c.ToolName] {
		return fail(notLoadedResult(c.ToolName))
	}
	if c.Truncated {
		return fail(truncatedResult)
	}
	key := c.ToolName + "\x00" + c.Input
	if t.seen[key] && !tl.Spec().Repeatable {
		return fail(duplicateResult)
	}
	t.seen[key] = true
	raw := bytes.TrimSpace([]byte(c.Input))
	if len(raw) == 0 {
		raw = []byte("{}") // zero-argument calls may arrive with no arguments at all
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return fail(fmt.Sprintf("%sthe arguments are not a JSON object (%v); send the input as one JSON object matching the tool's schema", failedPrefix, jsonErr(err)))
	}
	if k := duplicateKey(raw); k != "" {
		return fail(fmt.Sprintf("%sinvalid input: the key %q is given twice; send each argument once", failedPrefix, k))
	}
	if err := t.a.schemas.validate(tl, raw); err != nil {
		return fail(failedPrefix + "invalid input: " + err.Error())
	}
	p.input = json.RawMessage(raw)
	p.summary = tools.Summary(tl, p.input)
	return p
}

func jsonErr(err error) string {
	if err == nil {
		return "got null"
	}
	return err.Error()
}

// runToolCalls runs the tool calls of one assistant message and stores one result per
// call, in call order. Read-only, concurrency-safe calls run in parallel when the
// whole batch is such; otherwise the batch runs in order. On cancellation every call
// still gets a result and the error wraps errInterrupted.
func (t *turn) runToolCalls(ctx, bg context.Context, calls []message.Part) error {
	env := t.toolEnv()
	ps := make([]*prepared, len(calls))
	parallel := len(calls) > 1
	for i, c := range calls {
		ps[i] = t.prepare(c)
		if ps[i].done == nil && !concurrent(ps[i]) {
			parallel = false
		}
	}
	outs := make([]outcome, len(ps))
	if parallel {
		var wg sync.WaitGroup
		for i, p := range ps {
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[i] = t.execute(ctx, bg, env, p)
			}()
		}
		wg.Wait()
		for i, p := range ps {
			if err := t.saveResult(bg, p, outs[i]); err != nil {
				return err
			}
		}
	} else {
		for i, p := range ps {
			outs[i] = t.execute(ctx, bg, env, p)
			if err := t.saveResult(bg, p, outs[i]); err != nil {
				return err
			}
		}
	}
	if ctx.Err() != nil {
		return errors.Join(errInterrupted, context.Cause(ctx))
	}
	// A call that may have changed the world makes repeating earlier calls meaningful
	// again (re-read a file after editing it, re-run tests after a fix): the duplicate
	// check only rejects a repeat with nothing changed in between.
	for _, p := range ps {
		if p.done == nil && p.tool.Spec().Kind != tools.KindRead {
			clear(t.seen)
			break
		}
	}
	return nil
}

// concurrent reports whether a prepared call may run beside the other
// concurrent calls of its response: a read-only, concurrency-safe tool, or an
// Agent call whose run cannot clash with them (agentTool.concurrent).
func concurrent(p *prepared) bool {
	if at, ok := p.tool.(*agentTool); ok {
		return at.concurrent(p.input)
	}
	sp := p.tool.Spec()
	return sp.Kind == tools.KindRead && sp.ConcurrencySafe
}

// toolEnv is the tools.Env of the turn's next batch of tool calls.
func (t *turn) toolEnv() *tools.Env {
	env := &tools.Env{Workspace: t.a.cfg.Workspace, Files: t.a.fileState(t.sess.ID), SessionID: t.sess.ID, TurnID: t.id,
		Sandbox: t.a.cfg.Sandbox, Deferred: t.cur.deferred, Shells: t.a.shellSet(t.sess.ID),
		ContextWindow: t.a.cfg.ContextWindow}
	env.SpillDir = t.a.sessionSpillDir(t.sess.ID)
	env.ReadDenied = t.readDenied()
	return env
}

// readDenied is tools.Env.ReadDenied for this turn's rules: true for a file a
// rule denies reading (a Read call on it is denied by a rule, not by a mode or
// the protected paths); nil when no Read deny rule exists. The rules are taken
// now: approvals during the batch only add allow rules.
func (t *turn) readDenied() func(abs string) bool {
	rules, mode := t.rules, t.a.Mode()
	if !slices.ContainsFunc(rules.Deny, func(r permission.Rule) bool { return r.Tool == "Read" }) {
		return nil
	}
	return func(abs string) bool {
		d := permission.Evaluate(mode, rules, t.fileInput("Read", permission.KindRead, []string{abs}))
		return d.Behavior == permission.Deny && d.Rule != ""
	}
}

// execute takes one prepared call through the hook, the permission decision, the run
// and the completion event. It never fails: every path ends in an outcome.
func (t *turn) execute(ctx, bg context.Context, env *tools.Env, p *prepared) outcome {
	out := t.decideAndRun(ctx, bg, env, p)
	out.text, out.diff = t.a.cfg.Redactor.Redact(out.text), t.a.cfg.Redactor.Redact(out.diff)
	_ = t.emit(bg, event.ToolCompleted, event.ToolCompletedData{
		ToolCallID: p.call.ToolCallID, Name: p.call.ToolName, Output: out.text,
		IsError: out.isError, DurationMs: out.durationMs, Diff: out.diff, OutputLines: out.lines,
		Summary: p.summary, DeniedBy: out.deniedBy,
	})
	return out
}

func (t *turn) decideAndRun(ctx, bg context.Context, env *tools.Env, p *prepared) outcome {
	if p.done != nil {
		return *p.done
	}
	if ctx.Err() != nil {
		return outcome{text: cancelledResult, isError: true}
	}
	var pre hook.PreToolResult
	if t.a.cfg.Hooks.Has(hook.PreToolUse) {
		pre = t.a.cfg.Hooks.PreToolUse(ctx, t.a.hookCommon(t.sess.ID), p.call.ToolName, p.input, p.call.ToolCallID)
		t.hookNotes(bg, pre.Notes)
		if pre.Decision == hook.Deny {
			reason := pre.Reason
			if reason == "" {
				reason = "no reason given"
			}
			t.audit(bg, p, t.permissionInput(env, p), permission.Decision{Behavior: permission.Deny, Reason: reason, By: "hook"}, "")
			return outcome{text: hookBlockedPrefix + reason, isError: true, deniedBy: "hook"}
		}
		if len(pre.UpdatedInput) > 0 {
			if err := t.a.schemas.validate(p.tool, pre.UpdatedInput); err != nil {
				return outcome{text: failedPrefix + "a PreToolUse hook rewrote the input into an invalid one: " + err.Error(), isError: true}
			}
			p.input = pre.UpdatedInput
			p.summary = tools.Summary(p.tool, p.input)
		}
	}
	d := t.permit(ctx, bg, env, p, pre)
	if d.Behavior != permission.Allow {
		if p.cannotSucceed != "" {
			return outcome{text: failedPrefix + p.cannotSucceed, isError: true}
		}
		by := d.By
		if by == "" {
			by = "pincer"
		}
		return outcome{text: deniedPrefix + d.Reason, isError: true, deniedBy: by}
	}
	if ctx.Err() != nil {
		return outcome{text: cancelledResult, isError: true}
	}
	_ = t.emit(bg, event.ToolStarted, event.ToolStartedData{
		ToolCallID: p.call.ToolCallID, Name: p.call.ToolName, Input: string(p.input), Summary: p.summary,
	})
	callEnv := *env
	callEnv.ToolCallID = p.call.ToolCallID
	callEnv.ApprovedPreview = p.approvedPreview
	callEnv.ConfineReads = d.ProjectOnly // only a repository's rule allowed it
	// or such a command ran earlier here (checked again now: it may have been
	// allowed since this call's decision)
	callEnv.ConfineTainted = taintConfines(t.a.cfg.Workspace, p.tool.Spec().Name, d, p.personal)
	callEnv.ConfineReads = callEnv.ConfineReads || callEnv.ConfineTainted
	callEnv.Unvouched = unvouched(p.tool.Spec().Name, d, p.personal)
	if confinesByPaths(&callEnv, d) {
		callEnv.ConfineReads, callEnv.ConfineQuiet = true, true
	}
	ck := t.checkpointBefore(ctx, &callEnv, p)
	start := time.Now()
	res, err := runSafely(withTurn(ctx, t.id), p.tool, &callEnv, p.input)
	t.checkpointAfter(bg, p, ck)
	out := outcome{text: res.Output, isError: res.IsError, diff: res.Diff, durationMs: time.Since(start).Milliseconds(),
		lines: res.OutputLines}
	switch {
	case err != nil && ctx.Err() != nil:
		out.text, out.isError = cancelledResult, true
		if res.Output != "" {
			out.text += "\nPartial output:\n" + res.Output
		}
	case err != nil:
		out.text, out.isError = failedPrefix+err.Error(), true
	default:
		if !res.IsError {
			t.diagnose(ctx, p.tool, &callEnv, p.input)
		}
	}
	out.text, out.diff = t.a.cfg.Redactor.Redact(out.text), t.a.cfg.Redactor.Redact(out.diff) // before PostToolUse hooks see it
	t.a.cfg.Redactor.RedactFiles(callEnv.SpillDir, start)                                     // the full output spilled on disk
	if t.a.cfg.Hooks.Has(hook.PostToolUse) {
		post := t.a.cfg.Hooks.PostToolUse(bg, t.a.hookCommon(t.sess.ID), p.call.ToolName, p.input, p.call.ToolCallID, out.text, out.isError)
		t.hookNotes(bg, post.Notes)
		if post.Block && post.Reason != "" {
			out.text += "\n\nPostToolUse hook feedback:\n" + post.Reason
		}
		if post.AdditionalContext != "" {
			out.text += "\n\n<system-reminder>\n" + post.AdditionalContext + "\n</system-reminder>"
		}
	}
	return out
}

// runSafely runs a tool, turning a panic into an error so one bad tool cannot take the
// turn down.
func runSafely(ctx context.Context, tl tools.Tool, env *tools.Env, input json.RawMessage) (res tools.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error in %s: %v", tl.Spec().Name, r)
		}
	}()
	return tl.Run(ctx, env, input)
}

// saveResult stores the tool message answering p's call.
func (t *turn) saveResult(bg context.Context, p *prepared, out outcome) error {
	_, err := t.save(bg, message.NewToolResult(p.call.ToolCallID, p.call.ToolName, out.text, out.isError))
	return err
}
