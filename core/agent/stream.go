package agent

import (
	"context"
	"errors"
	"slices"
	"strings"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/provider"
)

// errInterrupted marks a model call or tool batch ended by the turn's cancellation.
var errInterrupted = errors.New("interrupted")

// callModel makes one model call over the repaired view of the transcript, streams
// its deltas to the log, stores the assistant message and returns its tool calls.
// On cancellation or a stream error what had arrived is stored, marked interrupted,
// and its (unrun) tool calls are dropped; on cancellation the error wraps the
// context's.
func (t *turn) callModel(ctx, bg context.Context) ([]message.Part, error) {
	view := t.view()
	req := provider.Request{
		Model:     t.modelID(),
		Messages:  view,
		Tools:     t.withTurnTools(t.offer().specs),
		MaxTokens: t.a.cfg.MaxTokens,
	}
	text := t.a.textProtocol()
	if text { // no tools on the wire; the protocol is in the system message
		req.Tools, req.Messages = nil, textView(view)
	}
	search, searchBy := t.serverSearch(text)
	req.WebSearch = search
	t.malformed = false
	msgID := "msg-" + newID()
	var storeErr error
	co := newCoalescer(t.a.cfg.DeltaInterval, func(kind, text string) {
		if err := t.emit(bg, event.MessageDelta, event.MessageDeltaData{MessageID: msgID, Delta: text, Kind: kind}); err != nil && storeErr == nil {
			storeErr = err
		}
	})

	var (
		parts     partBuilder
		calls     []message.Part
		usage     message.Usage
		finish    string
		streamErr error
	)
	for ev, err := range t.a.currentProvider().Stream(ctx, req) {
		if err != nil {
			streamErr = err
			break
		}
		switch ev.Type {
		case provider.EventTextDelta:
			parts.add(message.PartText, ev.Text, "")
			co.add("text", ev.Text)
		case provider.EventReasoningDelta:
			parts.add(message.PartReasoning, ev.Text, ev.Signature)
			co.add("reasoning", ev.Text)
		case provider.EventToolCallStart:
			// Every view shows the call at once, while its arguments stream.
			co.then(func() {
				if err := t.emit(bg, event.ToolReceiving, event.ToolReceivingData{ToolCallID: ev.ToolCall.ToolCallID, Name: t.canonicalToolName(ev.ToolCall.ToolName)}); err != nil && storeErr == nil {
					storeErr = err
				}
			})
		case provider.EventToolCall:
			tc := ev.ToolCall
			tc.Type = message.PartToolCall
			tc.ToolName = t.canonicalToolName(tc.ToolName) // "functions.Read" is Read (toolprefix.go)
			tc.ToolCallID = uniqueCallID(tc.ToolCallID, calls)
			calls = append(calls, tc)
		case provider.EventRetry: // the provider tries again: said, not kept
			co.then(func() { t.notice(bg, "warning", "provider", t.a.currentProvider().Name()+": "+ev.Text) })
		case provider.EventServerBlock:
			if search != nil { // a block of a tool this call declared (serversearch.go)
				t.serverBlock(bg, co, &parts, ev.Block, searchBy, &storeErr)
			}
		case provider.EventUsage:
			mergeUsage(&usage, ev.Usage)
		case provider.EventDone:
			finish = ev.FinishReason
		}
	}
	co.close()
	if storeErr != nil {
		return nil, storeErr
	}
	interrupted := ctx.Err() != nil
	if interrupted || streamErr != nil {
		calls = nil // never run, and a broken stream's calls may be incomplete
	}
	var reply textReply
	if text && !interrupted && streamErr == nil && len(calls) == 0 {
		reply = parseTextReply(message.Message{Parts: parts.content()}.Text())
		switch reply.kind {
		case replyCommand: // run as a Bash call: the same pipeline, the same timeline row
			calls = append(calls, textBashCall(reply.body))
		case replyMalformed:
			t.malformed = true
		}
	}

	m := message.Message{ID: msgID, Role: message.RoleAssistant, Parts: append(parts.content(), calls...),
		Model: t.a.modelName(), Interrupted: interrupted || streamErr != nil}
	if usage != (message.Usage{}) {
		u := usage
		m.Usage = &u
	}
	if len(m.Parts) > 0 || interrupted {
		stored, err := t.save(bg, m)
		if err != nil {
			return nil, err
		}
		shown := event.MessageCompletedData{
			MessageID: stored.ID, Role: string(message.RoleAssistant), Text: stored.Text(),
			Reasoning: stored.Reasoning(), Interrupted: stored.Interrupted, ToolCalls: callRefs(calls),
		}
		if reply.kind == replyText { // every view shows the answer; the transcript keeps the reply as sent
			shown.Text, shown.Reasoning = reply.body, joinReasoning(shown.Reasoning, reply.lead)
		}
		if err := t.emit(bg, event.MessageCompleted, shown); err != nil {
			return nil, err
		}
		if txt := stored.Text(); txt != "" {
			t.finalText = txt
		}
		if reply.kind == replyText {
			t.finalText = reply.body // the answer without its "text:"
		}
	}
	if usage != (message.Usage{}) {
		t.price(&usage)
		t.usage.Add(usage)
		if est := EstimateTokens(view); est > 0 && usage.InputTokens > 0 {
			t.ratio = float64(contextTokens(usage)) / float64(est)
		}
		if err := t.emit(bg, event.UsageReported, usageData(usage, t.a.cfg.ContextWindow)); err != nil {
			return nil, err
		}
	}
	if interrupted {
		return nil, errors.Join(errInterrupted, context.Cause(ctx))
	}
	if streamErr != nil {
		return nil, streamErr
	}
	t.stopReason = finish
	if t.stopReason == "" {
		t.stopReason = "stop"
	}
	if isOutputLimit(finish) {
		t.stopReason = StopMaxTokens
		if len(calls) == 0 {
			t.notice(bg, "warning", "output_limit", outputLimitNotice)
		}
	}
	return calls, nil
}

// partBuilder accumulates streamed text and reasoning into ordered parts, merging
// consecutive deltas of the same type. Each part's text grows in a byte slice
// (texts[i] is parts[i]'s text), so a long stream costs time linear in its
// length rather than one copy of the text so far per delta.
type partBuilder struct {
	parts []message.Part
	texts [][]byte
}

func (b *partBuilder) add(typ message.PartType, text, signature string) {
	n := len(b.parts)
	// A signed reasoning block is complete (Anthropic sends the signature last):
	// reasoning that follows is a new block, sent back as its own.
	sealed := n > 0 && typ == message.PartReasoning && b.parts[n-1].Signature != "" && text != ""
	if n > 0 && b.parts[n-1].Type == typ && !sealed {
		b.texts[n-1] = append(b.texts[n-1], text...)
		if signature != "" {
			b.parts[n-1].Signature = signature
		}
		return
	}
	if text == "" && signature == "" {
		return
	}
	b.parts = append(b.parts, message.Part{Type: typ, Signature: signature})
	b.texts = append(b.texts, []byte(text))
}

// addPart appends a complete part (a provider's server block), kept as is.
func (b *partBuilder) addPart(p message.Part) {
	b.parts = append(b.parts, p)
	b.texts = append(b.texts, []byte(p.Text))
}

// content returns the parts worth storing: whitespace-only text (some providers
// send "\n\n" before tool calls) would be a content block a provider rejects on the
// next request, so it is left out (its deltas were still shown).
func (b *partBuilder) content() []message.Part {
	out := make([]message.Part, 0, len(b.parts))
	for i, p := range b.parts {
		p.Text = string(b.texts[i])
		if p.Type == message.PartText && strings.TrimSpace(p.Text) == "" {
			continue
		}
		out = append(out, p)
	}
	return out
}

// mergeUsage folds a usage report into u: a provider may report usage more than once
// in a stream; non-zero fields of the later report win.
func mergeUsage(u *message.Usage, o message.Usage) {
	set := func(dst *int64, v int64) {
		if v != 0 {
			*dst = v
		}
	}
	set(&u.InputTokens, o.InputTokens)
	set(&u.OutputTokens, o.OutputTokens)
	set(&u.CacheReadTokens, o.CacheReadTokens)
	set(&u.CacheWriteTokens, o.CacheWriteTokens)
	set(&u.ReasoningTokens, o.ReasoningTokens)
	set(&u.WebSearchRequests, o.WebSearchRequests)
	if o.CostUSD != nil {
		c := *o.CostUSD
		u.CostUSD = &c
	}
}

// uniqueCallID returns id, or a fresh one when id is empty or already used by an
// earlier call of the same response: every tool call must be answerable by exactly
// one result, and some providers repeat or omit ids.
func uniqueCallID(id string, earlier []message.Part) string {
	if id != "" && !slices.ContainsFunc(earlier, func(p message.Part) bool { return p.ToolCallID == id }) {
		return id
	}
	return "call_" + newID()
}

// contextTokens is how much of the context window a call's prompt used: its input
// tokens, plus the cached ones where the provider counts them apart (Anthropic).
func contextTokens(u message.Usage) int64 {
	return u.InputTokens + u.CacheReadTokens + u.CacheWriteTokens
}

// usageData is the usage event of one model call.
func usageData(u message.Usage, window int64) event.UsageData {
	return event.UsageData{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheReadTokens: u.CacheReadTokens, CacheWriteTokens: u.CacheWriteTokens, CostUSD: u.CostUSD,
		ContextTokens: contextTokens(u), ContextWindow: window}
}

// price fills in the cost of a call's usage from the catalog when the provider did
// not report one.
func (t *turn) price(u *message.Usage) {
	if u.CostUSD == nil && t.a.cfg.Cost != nil {
		u.CostUSD = t.a.cfg.Cost(*u)
	}
}

// callRefs names the calls of a reply, in the model's order, for its
// message.completed (nil when it makes none).
func callRefs(calls []message.Part) []event.ToolCallRef {
	var refs []event.ToolCallRef
	for _, c := range calls {
		refs = append(refs, event.ToolCallRef{ToolCallID: c.ToolCallID, Name: c.ToolName})
	}
	return refs
}
