package anthropic

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"

	"pincer/core/message"
	"pincer/core/provider"
)

// toolBlock is a tool_use content block being assembled from input_json_delta
// fragments.
type toolBlock struct {
	id, name   string
	startInput string // the "input" of content_block_start, as sent ("{}" in practice)
	args       strings.Builder
	closed     bool // content_block_stop arrived
}

// decoder turns the SDK's stream events of one Messages stream into provider events.
// It is a pure state machine (no I/O), fed one event at a time; the events it
// produces accumulate in out until the caller takes them. Pings never reach it (the
// SDK drops them), and neither do "event: error" frames (the SDK turns them into its
// error, see streamOnce).
type decoder struct {
	blocks    map[int64]*toolBlock
	servers   map[int64]*serverBlock // server_tool_use blocks being assembled
	results   map[int64]message.Part // web_search_tool_result blocks, emitted at their stop
	order     []*toolBlock           // tool blocks in start order, not yet emitted
	usage     message.Usage
	stop      string
	sawDelta  bool // message_delta arrived: the stop reason is known
	sawStop   bool // message_stop arrived
	delivered bool // something was produced for the consumer
	out       []provider.Event
}

// take returns the pending events and clears them.
func (d *decoder) take() []provider.Event {
	out := d.out
	d.out = nil
	if len(out) > 0 {
		d.delivered = true
	}
	return out
}

// emit queues one event.
func (d *decoder) emit(ev provider.Event) { d.out = append(d.out, ev) }

// feed handles one stream event. Unknown event and block types (citations_delta,
// future additions) are ignored, as Anthropic's versioning policy asks; the blocks
// of the server-side web search are kept (serverblock.go).
func (d *decoder) feed(ev *anthropic.MessageStreamEventUnion) {
	switch ev.Type {
	case "message_start":
		// input_tokens here excludes cache reads and writes; output_tokens is a
		// preliminary count that message_delta replaces.
		u := ev.Message.Usage
		d.usage = message.Usage{
			InputTokens:      u.InputTokens,
			OutputTokens:     u.OutputTokens,
			CacheReadTokens:  u.CacheReadInputTokens,
			CacheWriteTokens: u.CacheCreationInputTokens,
		}
	case "content_block_start":
		d.startBlock(ev.Index, &ev.ContentBlock)
	case "content_block_delta":
		d.delta(ev.Index, &ev.Delta)
	case "content_block_stop":
		if b := d.blocks[ev.Index]; b != nil {
			b.closed = true
		}
		if b := d.servers[ev.Index]; b != nil {
			delete(d.servers, ev.Index)
			d.emit(provider.Event{Type: provider.EventServerBlock, Block: serverUsePart(b)})
		}
		if p, ok := d.results[ev.Index]; ok {
			delete(d.results, ev.Index)
			d.emit(provider.Event{Type: provider.EventServerBlock, Block: p})
		}
	case "message_delta":
		d.messageDelta(ev)
	case "message_stop":
		d.sawStop = true
	}
}

// startBlock opens a content block. Text and thinking blocks normally start empty
// (case 25, 28) but may carry text; a redacted_thinking block is complete at once.
func (d *decoder) startBlock(index int64, cb *anthropic.ContentBlockStartEventContentBlockUnion) {
	switch cb.Type {
	case "text":
		if cb.Text != "" {
			d.emit(provider.Event{Type: provider.EventTextDelta, Text: cb.Text})
		}
	case "thinking":
		if cb.Thinking != "" || cb.Signature != "" {
			d.emit(provider.Event{Type: provider.EventReasoningDelta, Text: cb.Thinking, Signature: cb.Signature})
		}
	case "redacted_thinking":
		if cb.Data != "" {
			d.emit(provider.Event{Type: provider.EventReasoningDelta, Signature: redactedSignature(cb.Data)})
		}
	case blockServerToolUse:
		if d.servers == nil {
			d.servers = map[int64]*serverBlock{}
		}
		d.servers[index] = &serverBlock{start: cb.RawJSON(), id: cb.ID}
	case blockWebSearchResult:
		if d.results == nil {
			d.results = map[int64]message.Part{}
		}
		d.results[index] = searchResultPart(cb.RawJSON(), cb.ToolUseID)
	case "tool_use":
		if d.blocks == nil {
			d.blocks = map[int64]*toolBlock{}
		}
		b := &toolBlock{id: cb.ID, name: cb.Name, startInput: cb.JSON.Input.Raw()}
		d.blocks[index] = b
		d.order = append(d.order, b)
		if cb.Name != "" { // its arguments stream next (input_json_delta)
			d.emit(provider.Event{Type: provider.EventToolCallStart, ToolCall: message.Part{
				Type: message.PartToolCall, ToolCallID: cb.ID, ToolName: cb.Name}})
		}
	}
}

// delta applies one content_block_delta.
func (d *decoder) delta(index int64, del *anthropic.MessageStreamEventUnionDelta) {
	switch del.Type {
	case "text_delta":
		if del.Text != "" {
			d.emit(provider.Event{Type: provider.EventTextDelta, Text: del.Text})
		}
	case "thinking_delta":
		if del.Thinking != "" { // case 28 sends an empty one before the signature
			d.emit(provider.Event{Type: provider.EventReasoningDelta, Text: del.Thinking})
		}
	case "signature_delta":
		if del.Signature != "" {
			d.emit(provider.Event{Type: provider.EventReasoningDelta, Signature: del.Signature})
		}
	case "input_json_delta":
		// The first fragment is often empty (case 26, 27): appending it is harmless.
		if b := d.blocks[index]; b != nil {
			b.args.WriteString(del.PartialJSON)
		}
		if b := d.servers[index]; b != nil {
			b.args.WriteString(del.PartialJSON)
		}
	}
}

// messageDelta records the stop reason, flushes the tool calls (complete now, and
// judged against the stop reason) and emits the usage. message_delta's usage is
// cumulative; its input and cache fields, when present, replace message_start's
// (case 27 repeats them).
func (d *decoder) messageDelta(ev *anthropic.MessageStreamEventUnion) {
	if sr := string(ev.Delta.StopReason); sr != "" {
		d.stop = sr
	}
	d.sawDelta = true
	d.flushCalls()
	u, present := ev.Usage, ev.Usage.JSON
	if present.InputTokens.Valid() {
		d.usage.InputTokens = u.InputTokens
	}
	if present.CacheReadInputTokens.Valid() {
		d.usage.CacheReadTokens = u.CacheReadInputTokens
	}
	if present.CacheCreationInputTokens.Valid() {
		d.usage.CacheWriteTokens = u.CacheCreationInputTokens
	}
	if present.OutputTokens.Valid() {
		d.usage.OutputTokens = u.OutputTokens
	}
	if present.ServerToolUse.Valid() {
		d.usage.WebSearchRequests = u.ServerToolUse.WebSearchRequests
	}
	if present.OutputTokensDetails.Valid() && u.OutputTokensDetails.JSON.ThinkingTokens.Valid() {
		d.usage.ReasoningTokens = u.OutputTokensDetails.ThinkingTokens
	}
	if d.usage != (message.Usage{}) {
		d.emit(provider.Event{Type: provider.EventUsage, Usage: d.usage})
	}
}

// flushCalls emits every tool call not yet emitted, in block order. A call without
// argument fragments takes the input of its content_block_start, "{}" for a tool
// without arguments. Under "max_tokens", a call whose block never closed or whose
// JSON does not parse was cut off: it is marked Truncated.
func (d *decoder) flushCalls() {
	for _, b := range d.order {
		input := b.args.String()
		if input == "" {
			input = "{}"
			if in := bytes.TrimSpace([]byte(b.startInput)); isJSONObject(in) {
				var c bytes.Buffer
				if json.Compact(&c, in) == nil {
					input = c.String()
				}
			}
		}
		d.emit(provider.Event{Type: provider.EventToolCall, ToolCall: message.Part{
			Type:       message.PartToolCall,
			ToolCallID: b.id,
			ToolName:   b.name,
			Input:      input,
			Truncated:  d.stop == "max_tokens" && (!b.closed || !json.Valid([]byte(input))),
		}})
	}
	d.order = nil
}

// end finishes the stream at its end of input. A stream that ended before its stop
// reason arrived was cut off, and its half-built tool calls must not run: that is an
// error (ok false). message_stop itself is not required once message_delta has come.
func (d *decoder) end() (ok bool) {
	if !d.sawDelta && !d.sawStop {
		return false
	}
	d.flushCalls()
	d.emit(provider.Event{Type: provider.EventDone, FinishReason: d.stop})
	return true
}
