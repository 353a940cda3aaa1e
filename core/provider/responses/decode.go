package responses

import (
	"encoding/json"
	"fmt"
	"strings"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/wire"
	"pincer/core/provider/sse"
)

// streamEvent is one Responses API stream event; its Type repeats the SSE event name
// (case 05). Only the fields pincer reads are declared.
type streamEvent struct {
	Type         string          `json:"type"`
	Delta        string          `json:"delta"`
	ItemID       string          `json:"item_id"`
	SummaryIndex int             `json:"summary_index"`
	Arguments    string          `json:"arguments"`
	Item         *outputItem     `json:"item"`
	Response     *response       `json:"response"`
	Code         json.RawMessage `json:"code"`    // "error" events: top-level fields...
	Message      string          `json:"message"` //
	Error        json.RawMessage `json:"error"`   // ...or nested (case 06)
}

// outputItem is an item of a response's output; pincer reads function calls.
type outputItem struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// response is the response object of response.completed, .incomplete and .failed.
type response struct {
	Status            string          `json:"status"`
	Error             json.RawMessage `json:"error"`
	IncompleteDetails *struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
	Usage *usage `json:"usage"`
}

// usage is the Responses API token count.
type usage struct {
	InputTokens        int64 `json:"input_tokens"`
	InputTokensDetails struct {
		CachedTokens int64 `json:"cached_tokens"`
	} `json:"input_tokens_details"`
	OutputTokens        int64 `json:"output_tokens"`
	OutputTokensDetails struct {
		ReasoningTokens int64 `json:"reasoning_tokens"`
	} `json:"output_tokens_details"`
}

// call is a function call being assembled.
type call struct {
	id, name string
	args     strings.Builder
	done     bool // arguments.done or output_item.done arrived
	emitted  bool
	started  bool // its EventToolCallStart was emitted
}

// decoder turns the events of one Responses stream into provider events. It is a
// pure state machine (no I/O), the adapter's wire.Decoder; events accumulate in out
// until taken.
type decoder struct {
	name         string
	calls        map[string]*call // by item id
	order        []*call
	sawReasoning bool
	completed    bool // response.completed (or .incomplete) arrived
	out          []provider.Event
}

var _ wire.Decoder = (*decoder)(nil)

// Take returns the pending events and clears them.
func (d *decoder) Take() []provider.Event {
	out := d.out
	d.out = nil
	return out
}

// Feed handles one event of the stream (see feed); done once the response is
// complete.
func (d *decoder) Feed(ev sse.Event) (done bool, err *provider.Error) {
	done, err = d.feed(ev.Type, ev.Data)
	d.completed = d.completed || done
	return done, err
}

// End checks that the response completed: there is no [DONE], and a stream that
// ends without response.completed was cut off.
func (d *decoder) End() *provider.Error {
	if d.completed {
		return nil
	}
	return &provider.Error{Provider: d.name, Kind: provider.KindStream, Message: "stream ended before completion (no response.completed)"}
}

// emit queues one event.
func (d *decoder) emit(ev provider.Event) { d.out = append(d.out, ev) }

// feed handles one SSE event (its name is the fallback type). done is true once the
// response is complete; err is an error the stream reported or a malformed event.
// Events pincer has no use for (created, in_progress, content_part.*, ...) are
// ignored.
func (d *decoder) feed(name, data string) (done bool, err *provider.Error) {
	data = strings.TrimSpace(data)
	if data == "" || data == "[DONE]" {
		return false, nil
	}
	var ev streamEvent
	if e := json.Unmarshal([]byte(data), &ev); e != nil {
		return false, &provider.Error{Provider: d.name, Kind: provider.KindStream,
			Message: fmt.Sprintf("malformed event (%v): %s", e, wire.Truncate(wire.OneLine(data), 120))}
	}
	if ev.Type == "" {
		ev.Type = name
	}
	switch ev.Type {
	case "response.output_text.delta", "response.refusal.delta":
		if ev.Delta != "" {
			d.emit(provider.Event{Type: provider.EventTextDelta, Text: ev.Delta})
		}
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		if ev.Delta != "" {
			d.sawReasoning = true
			d.emit(provider.Event{Type: provider.EventReasoningDelta, Text: ev.Delta})
		}
	case "response.reasoning_summary_part.added":
		if ev.SummaryIndex > 0 && d.sawReasoning {
			d.emit(provider.Event{Type: provider.EventReasoningDelta, Text: "\n\n"})
		}
	case "response.output_item.added", "response.output_item.done":
		d.item(ev.Type, ev.Item)
	case "response.function_call_arguments.delta":
		if c := d.calls[ev.ItemID]; c != nil && !c.done {
			c.args.WriteString(ev.Delta)
		}
	case "response.function_call_arguments.done":
		if c := d.calls[ev.ItemID]; c != nil {
			c.args.Reset() // the complete arguments are authoritative
			c.args.WriteString(ev.Arguments)
			c.done = true
		}
	case "response.completed", "response.incomplete":
		d.complete(ev.Response)
		return true, nil
	case "response.failed":
		var info wire.ErrorInfo
		if ev.Response != nil && !wire.IsNull(ev.Response.Error) {
			info = wire.ParseErrorValue(ev.Response.Error)
		}
		return false, d.streamError(info)
	case "error":
		info := wire.ErrorInfo{Message: ev.Message, Code: wire.JSONString(ev.Code)}
		if !wire.IsNull(ev.Error) {
			info = wire.ParseErrorValue(ev.Error)
		}
		return false, d.streamError(info)
	}
	return false, nil
}

// item handles output_item.added and .done for function calls: added opens the call
// (keyed by item id, identified by call_id), done completes it with the item's
// arguments and yields it.
func (d *decoder) item(typ string, it *outputItem) {
	if it == nil || it.Type != "function_call" {
		return
	}
	c := d.calls[it.ID]
	if c == nil {
		if d.calls == nil {
			d.calls = map[string]*call{}
		}
		c = &call{}
		d.calls[it.ID] = c
		d.order = append(d.order, c)
		c.args.WriteString(it.Arguments)
	}
	if c.id == "" {
		c.id = it.CallID
	}
	if c.name == "" {
		c.name = it.Name
	}
	if !c.started && c.name != "" && typ == "response.output_item.added" { // its arguments stream next
		c.started = true
		d.emit(provider.Event{Type: provider.EventToolCallStart, ToolCall: message.Part{
			Type: message.PartToolCall, ToolCallID: c.id, ToolName: c.name}})
	}
	if typ == "response.output_item.done" {
		if it.Arguments != "" {
			c.args.Reset()
			c.args.WriteString(it.Arguments)
		}
		c.done = true
		d.emitCall(c, "")
	}
}

// emitCall yields a call once. Under "max_output_tokens" a call never completed, or
// whose arguments do not parse, is marked Truncated.
func (d *decoder) emitCall(c *call, finish string) {
	if c.emitted {
		return
	}
	c.emitted = true
	input := c.args.String()
	d.emit(provider.Event{Type: provider.EventToolCall, ToolCall: message.Part{
		Type:       message.PartToolCall,
		ToolCallID: c.id,
		ToolName:   c.name,
		Input:      input,
		Truncated:  finish == "max_output_tokens" && (!c.done || !json.Valid([]byte(input))),
	}})
}

// complete handles response.completed and response.incomplete: remaining calls, the
// usage, then EventDone with the status (or the incomplete reason).
func (d *decoder) complete(r *response) {
	finish := "completed"
	if r != nil && r.Status != "" {
		finish = r.Status
	}
	if r != nil && r.IncompleteDetails != nil && r.IncompleteDetails.Reason != "" {
		finish = r.IncompleteDetails.Reason
	}
	for _, c := range d.order {
		d.emitCall(c, finish)
	}
	if r != nil && r.Usage != nil {
		u := r.Usage
		d.emit(provider.Event{Type: provider.EventUsage, Usage: message.Usage{
			InputTokens:     u.InputTokens,
			OutputTokens:    u.OutputTokens,
			CacheReadTokens: u.InputTokensDetails.CachedTokens,
			ReasoningTokens: u.OutputTokensDetails.ReasoningTokens,
		}})
	}
	d.emit(provider.Event{Type: provider.EventDone, FinishReason: finish})
}

// streamError builds the error for an "error" event or response.failed.
func (d *decoder) streamError(info wire.ErrorInfo) *provider.Error {
	msg := wire.OneLine(info.Message)
	if msg == "" {
		msg = "response failed"
	}
	return &provider.Error{Provider: d.name, Kind: wire.InStreamKind(info), Message: msg}
}
