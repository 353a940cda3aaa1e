package openai

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"

	"pincer/core/message"
	"pincer/core/provider"
)

// pendingCall is a tool call being assembled from fragments.
type pendingCall struct {
	index   int // the wire index, or the position assigned when the server sent none
	seq     int // arrival order, to keep calls that share an index in order
	id      string
	name    string
	args    strings.Builder
	emitted bool
	started bool // its EventToolCallStart was returned
}

// toolCalls assembles tool calls from stream fragments. Fragments are matched to calls
// by, in order of trust:
//   - "index" (OpenAI and most servers). A fragment whose index is taken by a call with
//     a different id starts a new call (servers that send every call as index 0);
//   - "id" when there is no index (Mistral, case 14), a new id taking the next position;
//   - neither: the fragment continues the last call, or starts the first.
//
// The legacy delta.function_call (case 04) is one more call with a synthesized id.
type toolCalls struct {
	calls  []*pendingCall
	legacy *pendingCall
}

// add applies one tool_calls fragment. It returns an EventToolCallStart the
// first time the fragment's call has a name (ok false otherwise).
func (t *toolCalls) add(d toolCallDelta) (provider.Event, bool) {
	var c *pendingCall
	switch {
	case d.Index != nil:
		c = t.lastWith(func(c *pendingCall) bool { return c.index == *d.Index })
		if c != nil && d.ID != "" && c.id != "" && c.id != d.ID {
			c = nil // same index, another call
		}
		if c == nil {
			c = t.start(*d.Index)
		}
	case d.ID != "":
		c = t.lastWith(func(c *pendingCall) bool { return c.id == d.ID })
		if c == nil {
			c = t.start(t.nextIndex())
		}
	default:
		if len(t.calls) > 0 {
			c = t.calls[len(t.calls)-1]
		} else {
			c = t.start(0)
		}
	}
	c.merge(d.ID, d.Function)
	return c.startEvent()
}

// addLegacy applies one delta.function_call fragment, returning a start as
// add does.
func (t *toolCalls) addLegacy(f functionDelta) (provider.Event, bool) {
	if t.legacy == nil {
		t.legacy = t.start(t.nextIndex())
	}
	t.legacy.merge("", f)
	return t.legacy.startEvent()
}

// startEvent is the call's EventToolCallStart, once its name is known and
// only once.
func (c *pendingCall) startEvent() (provider.Event, bool) {
	if c.started || c.name == "" || c.emitted {
		return provider.Event{}, false
	}
	c.started = true
	return provider.Event{Type: provider.EventToolCallStart, ToolCall: message.Part{
		Type: message.PartToolCall, ToolCallID: c.id, ToolName: c.name}}, true
}

// merge applies a fragment to the call. The id and the name are taken from the first
// fragment that has them (some servers repeat them on every fragment); argument pieces
// are appended as sent.
func (c *pendingCall) merge(id string, f functionDelta) {
	if c.id == "" {
		c.id = id
	}
	if c.name == "" {
		c.name = f.Name
	}
	c.args.WriteString(f.argumentsText())
}

// start appends a new call with the given index.
func (t *toolCalls) start(index int) *pendingCall {
	c := &pendingCall{index: index, seq: len(t.calls)}
	t.calls = append(t.calls, c)
	return c
}

// lastWith returns the most recent call matching ok, or nil.
func (t *toolCalls) lastWith(ok func(*pendingCall) bool) *pendingCall {
	for i := len(t.calls) - 1; i >= 0; i-- {
		if ok(t.calls[i]) {
			return t.calls[i]
		}
	}
	return nil
}

// nextIndex is one past the highest index in use (0 when there is no call).
func (t *toolCalls) nextIndex() int {
	next := 0
	for _, c := range t.calls {
		next = max(next, c.index+1)
	}
	return next
}

// flush returns an EventToolCall for every call not yet emitted, in index order (then
// arrival order), and marks them emitted. finish is the stream's finish reason: under
// "length" a call whose arguments are not valid JSON was cut off and is marked
// Truncated. Calls without an id get a synthesized "call_<hex>" id.
func (t *toolCalls) flush(finish string) []provider.Event {
	var pending []*pendingCall
	for _, c := range t.calls {
		if !c.emitted {
			pending = append(pending, c)
		}
	}
	slices.SortStableFunc(pending, func(a, b *pendingCall) int {
		if a.index != b.index {
			return a.index - b.index
		}
		return a.seq - b.seq
	})
	events := make([]provider.Event, 0, len(pending))
	for _, c := range pending {
		c.emitted = true
		if c.id == "" {
			c.id = newCallID()
		}
		input := c.args.String()
		events = append(events, provider.Event{
			Type: provider.EventToolCall,
			ToolCall: message.Part{
				Type:       message.PartToolCall,
				ToolCallID: c.id,
				ToolName:   c.name,
				Input:      input,
				Truncated:  finish == "length" && !json.Valid([]byte(input)),
			},
		})
	}
	return events
}

// newCallID returns a random id in OpenAI's style for calls the server sent without
// one.
func newCallID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "call_" + hex.EncodeToString(b[:])
}
