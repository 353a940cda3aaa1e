package gemini

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/wire"
	"pincer/core/provider/sse"
)

// chunk is one streamed GenerateContentResponse.
type chunk struct {
	Candidates     []candidate     `json:"candidates"`
	UsageMetadata  *usageMetadata  `json:"usageMetadata"`
	PromptFeedback *promptFeedback `json:"promptFeedback"`
	ResponseID     string          `json:"responseId"`
	Error          json.RawMessage `json:"error"`
}

// candidate is one answer; only the first is read.
type candidate struct {
	Content      *content `json:"content"`
	FinishReason string   `json:"finishReason"`
	Index        int      `json:"index"`
}

// usageMetadata counts tokens. promptTokenCount includes cachedContentTokenCount;
// candidatesTokenCount excludes thoughtsTokenCount.
type usageMetadata struct {
	PromptTokenCount        int64 `json:"promptTokenCount"`
	CandidatesTokenCount    int64 `json:"candidatesTokenCount"`
	CachedContentTokenCount int64 `json:"cachedContentTokenCount"`
	ThoughtsTokenCount      int64 `json:"thoughtsTokenCount"`
}

// promptFeedback says why a prompt was blocked.
type promptFeedback struct {
	BlockReason string `json:"blockReason"`
}

// synthPrefix starts the ids this package makes for calls Gemini sent without one.
const synthPrefix = "gemini-call-"

// synthesized reports an id made by this package (never sent back to Gemini).
func synthesized(id string) bool { return strings.HasPrefix(id, synthPrefix) }

// decoder turns the chunks of one streamGenerateContent stream into provider events.
// It is a pure state machine (no I/O), the adapter's wire.Decoder; events accumulate
// in out until taken.
type decoder struct {
	name      string
	names     toolNames     // the request's wire names, mapped back on calls
	streamID  string        // responseId, or random: the stem of synthesized ids
	calls     int           // tool calls seen, for synthesized ids
	open      *pendingCall  // a function call whose arguments are still streaming
	usage     message.Usage // the latest counts
	haveUsage bool
	finish    string
	out       []provider.Event
}

// pendingCall is a function call streamed as partialArgs (case 24).
type pendingCall struct {
	id, name, signature string
	args                argsBuilder
}

var _ wire.Decoder = (*decoder)(nil)

// Take returns the pending events and clears them.
func (d *decoder) Take() []provider.Event {
	out := d.out
	d.out = nil
	return out
}

// Feed handles one event of the stream: its data is a chunk (Gemini names no
// events). The stream is complete only at the end of the body.
func (d *decoder) Feed(ev sse.Event) (done bool, err *provider.Error) {
	return false, d.feed([]byte(ev.Data))
}

// feed handles one SSE data payload: a chunk, or an error object Gemini sends in
// place of one when the stream fails after HTTP 200.
func (d *decoder) feed(data []byte) *provider.Error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil
	}
	var c chunk
	if err := json.Unmarshal(data, &c); err != nil {
		if info, ok := wire.ParseErrorBody(data); ok && info.Message != "" {
			return d.streamError(info) // an array-wrapped error
		}
		return &provider.Error{Provider: d.name, Kind: provider.KindStream,
			Message: fmt.Sprintf("malformed chunk (%v): %s", err, wire.Truncate(wire.OneLine(string(data)), 120))}
	}
	if !wire.IsNull(c.Error) {
		return d.streamError(wire.ParseErrorValue(c.Error))
	}
	if d.streamID == "" {
		d.streamID = c.ResponseID
	}
	if u := c.UsageMetadata; u != nil && (u.PromptTokenCount != 0 || u.CandidatesTokenCount != 0) {
		// Every chunk may carry usageMetadata; the first ones only a trafficType (case
		// 22). The last counts win.
		d.usage = message.Usage{
			InputTokens:     u.PromptTokenCount,
			OutputTokens:    u.CandidatesTokenCount + u.ThoughtsTokenCount,
			CacheReadTokens: u.CachedContentTokenCount,
			ReasoningTokens: u.ThoughtsTokenCount,
		}
		d.haveUsage = true
	}
	if len(c.Candidates) == 0 {
		if pf := c.PromptFeedback; pf != nil && pf.BlockReason != "" {
			return &provider.Error{Provider: d.name, Kind: provider.KindBadRequest, Message: "prompt blocked: " + pf.BlockReason}
		}
		return nil
	}
	cand := c.Candidates[0]
	if cand.Content != nil {
		for _, p := range cand.Content.Parts {
			d.part(p)
		}
	}
	if cand.FinishReason != "" && d.finish == "" {
		d.finish = cand.FinishReason
	}
	return nil
}

// part handles one part: thought text is reasoning, other text is answer text (empty
// text is skipped, case 22), a thoughtSignature on a text or thought part is yielded
// as a reasoning signature, and function calls are assembled.
func (d *decoder) part(p part) {
	if fc := p.FunctionCall; fc != nil {
		d.functionCall(fc, p.ThoughtSignature)
		return
	}
	text := ""
	if p.Text != nil {
		text = *p.Text
	}
	switch {
	case p.Thought:
		if text != "" || p.ThoughtSignature != "" {
			d.emit(provider.Event{Type: provider.EventReasoningDelta, Text: text, Signature: p.ThoughtSignature})
		}
	default:
		if text != "" {
			d.emit(provider.Event{Type: provider.EventTextDelta, Text: text})
		}
		if p.ThoughtSignature != "" {
			d.emit(provider.Event{Type: provider.EventReasoningDelta, Signature: p.ThoughtSignature})
		}
	}
}

// functionCall handles a functionCall part. A call with a name and no willContinue is
// complete (args an object, case 23). Gemini 3's streamed calls (case 24) open with
// {name, willContinue: true} and the thoughtSignature, continue with partialArgs, and
// close with an empty functionCall {}.
func (d *decoder) functionCall(fc *functionCall, signature string) {
	if fc.Name != "" {
		d.closeOpen(false) // a new call ends any open one
		c := &pendingCall{id: fc.ID, name: fc.Name, signature: signature}
		if len(fc.Args) > 0 && !wire.IsNull(fc.Args) {
			if n, err := parseNode(fc.Args); err == nil && n.kind == 'o' {
				c.args.root = n
			}
		}
		for _, pa := range fc.PartialArgs {
			c.args.apply(pa)
		}
		if fc.WillContinue {
			d.open = c
			return
		}
		d.emitCall(c, false)
		return
	}
	if d.open == nil {
		return
	}
	if signature != "" && d.open.signature == "" {
		d.open.signature = signature
	}
	for _, pa := range fc.PartialArgs {
		d.open.args.apply(pa)
	}
	if !fc.WillContinue {
		d.closeOpen(false)
	}
}

// closeOpen emits the open streamed call, if any.
func (d *decoder) closeOpen(truncated bool) {
	if d.open != nil {
		c := d.open
		d.open = nil
		d.emitCall(c, truncated)
	}
}

// emitCall yields a complete call. Calls without an id get a stable one: the
// response id and the call's position ("gemini-call-<responseId>-<n>").
func (d *decoder) emitCall(c *pendingCall, truncated bool) {
	id := c.id
	if id == "" {
		if d.streamID == "" {
			var b [8]byte
			_, _ = rand.Read(b[:])
			d.streamID = hex.EncodeToString(b[:])
		}
		id = fmt.Sprintf("%s%s-%d", synthPrefix, d.streamID, d.calls)
	}
	d.calls++
	d.emit(provider.Event{Type: provider.EventToolCall, ToolCall: message.Part{
		Type:       message.PartToolCall,
		ToolCallID: id,
		ToolName:   d.names.toReal(c.name),
		Input:      c.args.json(),
		Signature:  c.signature,
		Truncated:  truncated,
	}})
}

// finishMalformed is the finishReason of a function call Gemini could not parse: it
// sends no call and no text for it, so it is an error (KindMalformedCall), not an
// empty answer.
const finishMalformed = "MALFORMED_FUNCTION_CALL"

// End finishes the stream at the end of input (Gemini sends no [DONE]). A stream that
// ended without a finishReason was cut off: an error; so is MALFORMED_FUNCTION_CALL. A call still streaming when
// the output limit hit is marked Truncated.
func (d *decoder) End() *provider.Error {
	if d.finish == "" {
		return &provider.Error{Provider: d.name, Kind: provider.KindStream, Message: "stream ended before completion (no finishReason)"}
	}
	if d.finish == finishMalformed {
		return &provider.Error{Provider: d.name, Kind: provider.KindMalformedCall,
			Message: "the model's function call could not be parsed (finishReason MALFORMED_FUNCTION_CALL)"}
	}
	d.closeOpen(d.finish == "MAX_TOKENS")
	if d.haveUsage {
		d.emit(provider.Event{Type: provider.EventUsage, Usage: d.usage})
	}
	d.emit(provider.Event{Type: provider.EventDone, FinishReason: d.finish})
	return nil
}

// emit queues one event.
func (d *decoder) emit(ev provider.Event) { d.out = append(d.out, ev) }

// streamError builds the error for an error reported inside the stream.
func (d *decoder) streamError(info wire.ErrorInfo) *provider.Error {
	msg := wire.OneLine(info.Message)
	if msg == "" {
		msg = "unknown error"
	}
	return &provider.Error{Provider: d.name, Kind: wire.InStreamKind(info), Message: msg}
}
