package openai

import (
	"encoding/json"
	"fmt"
	"strings"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/wire"
	"pincer/core/provider/sse"
)

// decoder turns the SSE events of one Chat Completions stream into provider events.
// It is a pure state machine (no I/O), fed one SSE event at a time; the events it
// produces accumulate in out until the caller takes them. It is the
// adapter's wire.Decoder.
type decoder struct {
	p         *Provider
	calls     toolCalls
	finish    string // the first non-empty finish_reason
	finished  bool
	sawDone   bool           // "data: [DONE]" arrived
	lastUsage *message.Usage // the last usage emitted, to drop exact repeats
	out       []provider.Event
}

var _ wire.Decoder = (*decoder)(nil)

// Take returns the pending events and clears them.
func (d *decoder) Take() []provider.Event {
	out := d.out
	d.out = nil
	return out
}

// Feed handles one SSE event. done is true after "data: [DONE]"; err is an error the
// stream reported (in-band or as an "event: error" frame) or a malformed chunk.
func (d *decoder) Feed(ev sse.Event) (done bool, err *provider.Error) {
	data := strings.TrimSpace(ev.Data)
	if ev.Type == "error" {
		// Groq and others: "event: error" with {"error":{...}} or plain text (case 17).
		info, ok := wire.ParseErrorBody([]byte(data))
		if !ok || info.Message == "" {
			info.Message = wire.Truncate(wire.OneLine(data), 200)
		}
		return false, d.streamError(info, d.finished)
	}
	if data == "" {
		return false, nil
	}
	if data == "[DONE]" {
		d.sawDone = true
		return true, nil
	}
	var c chunk
	err1 := json.Unmarshal([]byte(data), &c)
	if err1 == nil {
		return false, d.apply(&c)
	}
	if ev.Type != sse.DefaultType {
		return false, nil // a named event of some other protocol: not ours to judge
	}
	if lines, ok := splitJoinedChunks(data); ok {
		for _, line := range lines {
			if line == "[DONE]" {
				d.sawDone = true
				return true, nil
			}
			var c chunk
			_ = json.Unmarshal([]byte(line), &c) // validated by splitJoinedChunks
			if err := d.apply(&c); err != nil {
				return false, err
			}
		}
		return false, nil
	}
	return false, d.p.conn.Caller.Errorf(provider.KindStream, "malformed chunk (%v): %s", err1, wire.Truncate(wire.OneLine(data), 120))
}

// splitJoinedChunks undoes a server bug reported for GLM-4.7 and Kimi-K2.5 relays:
// consecutive "data:" lines with no blank line between them, which SSE joins into one
// event "{...}\n{...}". It returns the lines when every one is a JSON object or
// "[DONE]".
func splitJoinedChunks(data string) ([]string, bool) {
	if !strings.Contains(data, "\n") {
		return nil, false
	}
	lines := strings.Split(data, "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		lines[i] = l
		if l != "[DONE]" && !(strings.HasPrefix(l, "{") && json.Valid([]byte(l))) {
			return nil, false
		}
	}
	return lines, true
}

// apply folds one decoded chunk into the state: deltas first, then the finish reason,
// then usage, then an in-band error (OpenRouter sends usage in the error chunk, case 12).
func (d *decoder) apply(c *chunk) *provider.Error {
	finishedBefore := d.finished
	for i := range c.Choices {
		ch := &c.Choices[i]
		if ch.Index != 0 {
			continue
		}
		if del := ch.Delta; del != nil {
			d.applyDelta(del)
		}
		if msg := ch.Message; msg != nil {
			d.applyDelta(msg)
		}
		if fr := ch.FinishReason; fr != nil && *fr != "" && !d.finished {
			// The first finish wins; a repeat (case 10) or a later null (case 11)
			// changes nothing. Tool calls are complete now.
			d.finished, d.finish = true, *fr
			d.out = append(d.out, d.calls.flush(d.finish)...)
		}
	}
	u := c.Usage
	if u == nil && c.XGroq != nil {
		u = c.XGroq.Usage
	}
	if u != nil {
		d.usage(u.toUsage())
	}
	if !wire.IsNull(c.Error) {
		return d.streamError(wire.ParseErrorValue(c.Error), finishedBefore)
	}
	return nil
}

// applyDelta emits the reasoning and text of a delta and records its tool fragments.
func (d *decoder) applyDelta(del *delta) {
	text, reasoning := splitContent(del.Content)
	// One reasoning source per delta: OpenRouter sends the same text in "reasoning"
	// and in reasoning_details (case 11, 12); DeepSeek/vLLM call it reasoning_content.
	if r := string(del.ReasoningContent); r != "" {
		reasoning += r
	} else if r := string(del.Reasoning); r != "" {
		reasoning += r
	} else {
		for _, det := range del.ReasoningDetails {
			reasoning += det.Text + det.Summary
		}
	}
	if reasoning != "" {
		d.out = append(d.out, provider.Event{Type: provider.EventReasoningDelta, Text: reasoning})
	}
	for _, det := range del.ReasoningDetails {
		if det.Signature != "" {
			d.out = append(d.out, provider.Event{Type: provider.EventReasoningDelta, Signature: det.Signature})
		}
	}
	text += string(del.Refusal)
	if text != "" {
		d.out = append(d.out, provider.Event{Type: provider.EventTextDelta, Text: text})
	}
	for _, tc := range del.ToolCalls {
		if ev, ok := d.calls.add(tc); ok {
			d.out = append(d.out, ev)
		}
	}
	if del.FunctionCall != nil {
		if ev, ok := d.calls.addLegacy(*del.FunctionCall); ok {
			d.out = append(d.out, ev)
		}
	}
}

// usage emits a usage event unless it repeats the previous one exactly.
func (d *decoder) usage(u message.Usage) {
	if d.lastUsage != nil && sameUsage(*d.lastUsage, u) {
		return
	}
	d.lastUsage = &u
	d.out = append(d.out, provider.Event{Type: provider.EventUsage, Usage: u})
}

// End finishes the stream at "[DONE]" or end of input: remaining tool calls, then
// EventDone. A stream that ended with neither a finish reason nor "[DONE]" was cut
// off, and its half-built tool calls must not run: that is an error.
func (d *decoder) End() *provider.Error {
	if !d.finished && !d.sawDone {
		return d.p.conn.Caller.Errorf(provider.KindStream, "stream ended before completion (no finish_reason, no [DONE])")
	}
	d.out = append(d.out, d.calls.flush(d.finish)...)
	d.out = append(d.out, provider.Event{Type: provider.EventDone, FinishReason: d.finish})
	return nil
}

// streamError builds the error for an error reported inside the stream. When the
// stream had finished in an earlier chunk, the finish reason is kept in the message
// (case 12: "length", then "Token limit reached").
func (d *decoder) streamError(info wire.ErrorInfo, afterFinish bool) *provider.Error {
	perr := wire.StreamError(d.p.conn.Name, info)
	if afterFinish {
		perr.Message += fmt.Sprintf(" (after finish_reason %q)", d.finish)
	}
	return perr
}

// sameUsage compares two usages, cost by value.
func sameUsage(a, b message.Usage) bool {
	ca, cb := a.CostUSD, b.CostUSD
	a.CostUSD, b.CostUSD = nil, nil
	if a != b || (ca == nil) != (cb == nil) {
		return false
	}
	return ca == nil || *ca == *cb
}
