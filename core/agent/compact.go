package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"pincer/core/event"
	"pincer/core/hook"
	"pincer/core/message"
	"pincer/core/provider"
)

// DefaultCompactThreshold is the share of the context window at which a turn
// compacts before its next model call.
const DefaultCompactThreshold = 0.85

// keepShare is the share of the context window kept verbatim after a compaction.
const keepShare = 0.30

// compactInstruction asks for the structured summary of the context issue.
const compactInstruction = `Summarise the conversation so far so that work can continue from the summary alone: the earlier messages will be replaced by it. Write these sections, concisely but without losing facts the work depends on:

1. Goal — what the user asked for, in their words where it matters.
2. Decisions — choices made and why, constraints the user set.
3. Files touched — paths read, created or changed, and what changed in each.
4. Current state — what works, what fails (with exact error messages), what was verified.
5. Open todos — what remains, in order.
6. Exact next step — the very next action to take.

Do not call tools. Answer with the summary only.`

// compactCommand is the input that asks for a compaction on demand: "/compact
// [focus]", as Claude Code's.
const compactCommand = "/compact"

// isCompactCommand reports whether input is "/compact [focus]" and returns the focus.
func isCompactCommand(input string) (string, bool) {
	s := strings.TrimSpace(input)
	if s != compactCommand && !strings.HasPrefix(s, compactCommand+" ") {
		return "", false
	}
	return strings.TrimSpace(strings.TrimPrefix(s, compactCommand)), true
}

// view is the provider view of the turn's transcript (buildView with the fresh
// dynamic prompt and instructions). Those are read once per model call (they run git
// and read files), however often the view is built for it.
func (t *turn) view() []message.Message {
	key := ctxKey{iter: t.iter, compacted: t.hasCompaction()}
	if !t.ctxRead || t.ctxKey != key {
		t.dyn, t.instr = "", ""
		if t.a.cfg.DynamicPrompt != nil {
			t.dyn = t.a.cfg.DynamicPrompt()
		}
		t.dyn = t.withDiagnostics(t.dyn)
		if t.a.cfg.Instructions != nil && key.compacted {
			t.instr = t.a.cfg.Instructions()
		}
		t.ctxKey, t.ctxRead = key, true
	}
	return buildView(t.msgs, withAnnouncement(t.msgs, t.dyn, t.offer().announce), t.instr)
}

// ctxKey says for which model call (and compaction state) the dynamic prompt and
// instructions were read.
type ctxKey struct {
	iter      int
	compacted bool
}

func (t *turn) hasCompaction() bool {
	for _, m := range t.msgs {
		if m.Role == message.RoleCompaction {
			return true
		}
	}
	return false
}

// estimate is EstimateTokens corrected by what the provider reported for the last
// view sent.
func (t *turn) estimate(view []message.Message) int64 {
	est := float64(EstimateTokens(view))
	if t.ratio > 0 {
		est *= t.ratio
	}
	return int64(est)
}

// maybeCompact compacts before a model call when the view would pass the threshold
// of the model's context window (never when the window is unknown).
func (t *turn) maybeCompact(ctx, bg context.Context) error {
	window := t.a.cfg.ContextWindow
	if window <= 0 {
		return nil
	}
	threshold := t.a.cfg.CompactThreshold
	if threshold <= 0 {
		threshold = DefaultCompactThreshold
	}
	if float64(t.estimate(t.view())) < threshold*float64(window) {
		return nil
	}
	return t.compact(ctx, bg, "auto", "")
}

// compact summarises the history up to a boundary with one separate model call and
// stores a compaction record; the stored messages stay as they were. trigger is
// "auto", "manual" or "context_length". It does nothing (with a notice) when there
// is too little history or a PreCompact hook blocks it.
func (t *turn) compact(ctx, bg context.Context, trigger, focus string) error {
	from := 0 // the first message that may be summarised
	for i, m := range t.msgs {
		if m.Role == message.RoleCompaction || (m.Role == message.RoleSystem && i == from) {
			from = i + 1
		}
	}
	before := t.estimate(t.view())
	keep := int64(keepShare * float64(t.a.cfg.ContextWindow))
	cut, ok := compactionBoundary(t.msgs, from, keep)
	if !ok && trigger != "auto" {
		// On demand, or refused by the provider: summarise all but the last round.
		cut, ok = compactionBoundary(t.msgs, from, 0)
	}
	if !ok {
		t.notice(bg, "info", "compaction", "nothing to compact yet")
		return nil
	}
	if t.a.cfg.Hooks.Has(hook.PreCompact) {
		hookTrigger := "auto"
		if trigger == "manual" {
			hookTrigger = "manual"
		}
		r := t.a.cfg.Hooks.PreCompact(ctx, t.a.hookCommon(t.sess.ID), hookTrigger, focus)
		t.hookNotes(bg, r.Notes)
		if r.Block {
			t.notice(bg, "info", "compaction", "a PreCompact hook blocked the compaction: "+r.Reason)
			return nil
		}
	}
	summary, err := t.summarise(ctx, bg, t.msgs[:cut], focus)
	if err != nil {
		return fmt.Errorf("compaction: %w", err)
	}
	rec := message.Message{Role: message.RoleCompaction, Parts: []message.Part{{Type: message.PartText, Text: summary}},
		Compaction: &message.Compaction{BoundarySeq: t.msgs[cut].Seq, Trigger: trigger, Focus: focus, BeforeTokens: before}}
	rec.Compaction.AfterTokens = t.estimate(buildView(append(append([]message.Message(nil), t.msgs...), rec), "", ""))
	stored, err := t.save(bg, rec)
	if err != nil {
		return err
	}
	return t.emit(bg, event.CompactionCompleted, event.CompactionCompletedData{
		BeforeTokens: stored.Compaction.BeforeTokens, AfterTokens: stored.Compaction.AfterTokens})
}

// summarise makes the summary call over the view of msgs and returns its text.
func (t *turn) summarise(ctx, bg context.Context, msgs []message.Message, focus string) (string, error) {
	instr := compactInstruction
	if focus != "" {
		instr += "\n\nFocus the summary on: " + focus
	}
	view := append(buildView(msgs, "", ""), message.NewText(message.RoleUser, instr))
	req := provider.Request{Model: t.a.model(), Messages: view, MaxTokens: t.a.cfg.MaxTokens}
	if hasToolCalls(view) {
		// Anthropic rejects tool_use blocks in a request without tools (HTTP 400
		// "Requests which include tool_use or tool_result blocks must define tools"):
		// the turn's own tools go along (the instruction says not to call them).
		req.Tools = t.withTurnTools(t.offer().specs)
	}
	return t.sideText(ctx, bg, t.a.currentProvider(), req, "summary")
}

// hasToolCalls reports whether a view holds a tool call or a tool result.
func hasToolCalls(view []message.Message) bool {
	for _, m := range view {
		for _, p := range m.Parts {
			if p.Type == message.PartToolCall || p.Type == message.PartToolResult {
				return true
			}
		}
	}
	return false
}

// isContextLength reports whether err is a provider's "context too long" refusal.
func isContextLength(err error) bool {
	var pe *provider.Error
	return errors.As(err, &pe) && pe.Kind == provider.KindContextLength
}
