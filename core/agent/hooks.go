package agent

import (
	"context"
	"strings"

	"pincer/core/event"
	"pincer/core/hook"
	"pincer/core/message"
)

// maxStopBlocks bounds how often Stop hooks may send the model back to work in one
// turn, so a hook that always blocks cannot loop forever.
const maxStopBlocks = 3

// hookCommon is the part of every hook's input that describes the session.
func (a *Agent) hookCommon(sessionID string) hook.Common {
	return hook.Common{SessionID: sessionID, Cwd: a.cfg.Workspace.Root(), PermissionMode: string(a.Mode())}
}

// notice emits a notice event for the user.
func (t *turn) notice(ctx context.Context, level, source, msg string) {
	_ = t.emit(ctx, event.Notice, event.NoticeData{Level: level, Source: source, Message: msg})
}

// hookNotes shows the user what hooks said besides their decisions, and records a
// hook's request to stop the turn ("continue": false).
func (t *turn) hookNotes(ctx context.Context, n hook.Notes) {
	for _, m := range n.SystemMessages {
		t.notice(ctx, "info", "hook", m)
	}
	for _, e := range n.Errors {
		t.notice(ctx, "warning", "hook", e)
	}
	if n.Stop && t.hookStop == "" {
		t.hookStop = n.StopReason
		if t.hookStop == "" {
			t.hookStop = "a hook asked to stop"
		}
		t.notice(ctx, "info", "hook", "stopping: "+t.hookStop)
	}
}

// reminder wraps text the model should read as context, not as the user's words, the
// way Claude Code injects hook output.
func reminder(text string) message.Message {
	return message.NewText(message.RoleUser, "<system-reminder>\n"+strings.TrimSpace(text)+"\n</system-reminder>")
}

// StartSession runs the SessionStart hooks of a session the caller is about to use
// (source "startup" for a new session, "resume" for one continued); what they add
// for the model goes in front of the session's next user message.
func (a *Agent) StartSession(ctx context.Context, sessionID, source string) {
	if !a.cfg.Hooks.Has(hook.SessionStart) {
		return
	}
	r := a.cfg.Hooks.SessionStart(ctx, a.hookCommon(sessionID), source)
	for _, e := range r.Errors {
		_, _ = a.log.Emit(ctx, event.Notice, sessionID, "", event.NoticeData{Level: "warning", Source: "hook", Message: e})
	}
	for _, m := range r.SystemMessages {
		_, _ = a.log.Emit(ctx, event.Notice, sessionID, "", event.NoticeData{Level: "info", Source: "hook", Message: m})
	}
	if strings.TrimSpace(r.AdditionalContext) != "" {
		a.mu.Lock()
		a.pending[sessionID] = append(a.pending[sessionID], r.AdditionalContext)
		a.mu.Unlock()
	}
}

// EndSession runs the SessionEnd hooks (reason: "exit", "clear", ...).
func (a *Agent) EndSession(ctx context.Context, sessionID, reason string) {
	if !a.cfg.Hooks.Has(hook.SessionEnd) {
		return
	}
	n := a.cfg.Hooks.SessionEnd(ctx, a.hookCommon(sessionID), reason)
	for _, e := range n.Errors {
		_, _ = a.log.Emit(ctx, event.Notice, sessionID, "", event.NoticeData{Level: "warning", Source: "hook", Message: e})
	}
}

// takePending returns and clears the context waiting for the session's next turn.
func (a *Agent) takePending(sessionID string) []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.pending[sessionID]
	delete(a.pending, sessionID)
	return p
}

// promptHooks runs UserPromptSubmit. blocked is set (with the reason for the user)
// when a hook refuses the prompt; context is what hooks add for the model.
func (t *turn) promptHooks(ctx context.Context) (blocked string, context string) {
	if !t.a.cfg.Hooks.Has(hook.UserPromptSubmit) {
		return "", ""
	}
	r := t.a.cfg.Hooks.UserPromptSubmit(ctx, t.a.hookCommon(t.sess.ID), t.input)
	t.hookNotes(ctx, r.Notes)
	if r.Block {
		reason := r.Reason
		if reason == "" {
			reason = "blocked by a UserPromptSubmit hook"
		}
		return reason, ""
	}
	return "", r.AdditionalContext
}

// stopHooks runs the Stop hooks when the model has answered without tool calls. It
// returns the feedback to send the model when a hook wants it to go on.
func (t *turn) stopHooks(ctx context.Context) string {
	if !t.a.cfg.Hooks.Has(hook.Stop) || t.stopBlocks >= maxStopBlocks {
		return ""
	}
	r := t.a.cfg.Hooks.Stop(ctx, t.a.hookCommon(t.sess.ID), t.stopBlocks > 0)
	t.hookNotes(ctx, r.Notes)
	if !r.Block || t.hookStop != "" {
		return ""
	}
	t.stopBlocks++
	if r.Reason == "" {
		return "A Stop hook asked you to continue."
	}
	return "Stop hook feedback:\n" + r.Reason
}
