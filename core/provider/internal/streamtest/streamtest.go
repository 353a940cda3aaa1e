// Package streamtest holds test helpers shared by the provider adapters' tests: fold
// a provider stream the way the agent loop folds it, serve payloads from httptest,
// record requests, and compare tool calls and errors.
package streamtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"pincer/core/message"
	"pincer/core/provider"
)

// Result is everything a stream yielded, folded the way the agent loop folds it.
type Result struct {
	Text, Reasoning string
	Signatures      []string
	Calls           []message.Part
	Usage           message.Usage // field-by-field merge of the usage events
	UsageEvents     int
	Done            int    // EventDone count
	Finish          string // FinishReason of EventDone
	AfterDone       int    // events (or errors) after EventDone: must be 0
	Err             error
	Events          []provider.Event
	// Starts are the EventToolCallStart calls (id and name), in order;
	// CallsBeforeStart counts the EventToolCalls of a name no start had
	// named before them.
	Starts           []message.Part
	CallsBeforeStart int
}

// Collect ranges over a stream to its end.
func Collect(seq iter.Seq2[provider.Event, error]) Result {
	var r Result
	for ev, err := range seq {
		if r.Done > 0 {
			r.AfterDone++
		}
		if err != nil {
			r.Err = err
			continue
		}
		r.Events = append(r.Events, ev)
		switch ev.Type {
		case provider.EventTextDelta:
			r.Text += ev.Text
		case provider.EventReasoningDelta:
			r.Reasoning += ev.Text
			if ev.Signature != "" {
				r.Signatures = append(r.Signatures, ev.Signature)
			}
		case provider.EventToolCall:
			r.Calls = append(r.Calls, ev.ToolCall)
			if !slices.ContainsFunc(r.Starts, func(s message.Part) bool { return s.ToolName == ev.ToolCall.ToolName }) {
				r.CallsBeforeStart++
			}
		case provider.EventToolCallStart:
			r.Starts = append(r.Starts, ev.ToolCall)
		case provider.EventUsage:
			r.UsageEvents++
			MergeUsage(&r.Usage, ev.Usage)
		case provider.EventDone:
			r.Done++
			r.Finish = ev.FinishReason
		}
	}
	return r
}

// MergeUsage applies provider.EventUsage's rule: later values replace earlier ones
// field by field when non-zero.
func MergeUsage(dst *message.Usage, u message.Usage) {
	set := func(d *int64, v int64) {
		if v != 0 {
			*d = v
		}
	}
	set(&dst.InputTokens, u.InputTokens)
	set(&dst.OutputTokens, u.OutputTokens)
	set(&dst.CacheReadTokens, u.CacheReadTokens)
	set(&dst.CacheWriteTokens, u.CacheWriteTokens)
	set(&dst.ReasoningTokens, u.ReasoningTokens)
	set(&dst.WebSearchRequests, u.WebSearchRequests)
	if u.CostUSD != nil {
		dst.CostUSD = u.CostUSD
	}
}

// SSEServer serves payload, byte for byte, as an event stream to every request.
func SSEServer(t testing.TB, payload []byte) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(payload)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// MemoryTransport answers every request with Payload as a 200 event stream, in
// memory: a benchmark's network.
type MemoryTransport struct{ Payload []byte }

// RoundTrip implements http.RoundTripper.
func (m MemoryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		_ = req.Body.Close()
	}
	return &http.Response{
		StatusCode: http.StatusOK,
		Header:     http.Header{"Content-Type": {"text/event-stream"}},
		Body:       io.NopCloser(bytes.NewReader(m.Payload)),
		Request:    req,
	}, nil
}

// Request is one request as a test server saw it.
type Request struct {
	Method, Path, RawQuery string
	Header                 http.Header
	Body                   map[string]any // the JSON body decoded
	Raw                    []byte
}

// Script is a test server that answers request n (from 0) with its n-th handler (the
// last one repeats) and records every request.
type Script struct {
	*httptest.Server
	hits atomic.Int32
	mu   sync.Mutex
	reqs []Request
}

// NewScript starts a Script server, closed when the test ends.
func NewScript(t testing.TB, handlers ...func(w http.ResponseWriter)) *Script {
	t.Helper()
	s := &Script{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		rec := Request{Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, Header: r.Header.Clone(), Raw: raw}
		_ = json.Unmarshal(raw, &rec.Body)
		s.mu.Lock()
		s.reqs = append(s.reqs, rec)
		s.mu.Unlock()
		n := int(s.hits.Add(1)) - 1
		handlers[min(n, len(handlers)-1)](w)
	}))
	t.Cleanup(s.Close)
	return s
}

// Hits is the number of requests served.
func (s *Script) Hits() int { return int(s.hits.Load()) }

// Requests returns the recorded requests in order.
func (s *Script) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Stream answers with payload as an event stream.
func Stream(payload string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, payload)
	}
}

// Status answers with a status, headers (name, value pairs) and body.
func Status(code int, body string, headers ...string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_, _ = io.WriteString(w, body)
	}
}

// WantErr asserts that err is a *provider.Error of kind whose message contains part,
// and that its Error() is one line starting with the provider name.
func WantErr(t testing.TB, err error, name string, kind provider.Kind, part string) *provider.Error {
	t.Helper()
	var perr *provider.Error
	if !errors.As(err, &perr) {
		t.Fatalf("err = %v, want *provider.Error", err)
	}
	if perr.Kind != kind || !strings.Contains(perr.Message, part) || perr.Provider != name {
		t.Fatalf("err = %+v, want provider %s kind %s with %q", *perr, name, kind, part)
	}
	if line := perr.Error(); strings.ContainsAny(line, "\r\n") || !strings.HasPrefix(line, name+": ") {
		t.Fatalf("Error() = %q: want one line naming the provider", line)
	}
	return perr
}

// Call is an expected tool call. An ID ending in "*" is a prefix (synthesized ids).
type Call struct{ ID, Name, Args string }

// CheckCalls compares tool calls in order; none may be Truncated.
func CheckCalls(t testing.TB, got []message.Part, want []Call) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d tool calls %+v, want %d", len(got), got, len(want))
	}
	for i, w := range want {
		g := got[i]
		idOK := g.ToolCallID == w.ID
		if p, ok := strings.CutSuffix(w.ID, "*"); ok {
			idOK = strings.HasPrefix(g.ToolCallID, p) && len(g.ToolCallID) > len(p)
		}
		if !idOK || g.ToolName != w.Name || g.Input != w.Args || g.Type != message.PartToolCall || g.Truncated {
			t.Errorf("call %d = %+v, want id %q name %q args %s", i, g, w.ID, w.Name, w.Args)
		}
	}
}

// JSON decodes s for comparison with a recorded body.
func JSON(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad expectation %s: %v", s, err)
	}
	return v
}

// Assistant folds a stream's events into the assistant message the agent loop would
// store: consecutive text or reasoning deltas merged into one part (a signature
// joining the reasoning part it follows), then the tool calls.
func Assistant(r Result) message.Message {
	var parts []message.Part
	for _, ev := range r.Events {
		var typ message.PartType
		switch ev.Type {
		case provider.EventTextDelta:
			typ = message.PartText
		case provider.EventReasoningDelta:
			typ = message.PartReasoning
		default:
			continue
		}
		if n := len(parts); n > 0 && parts[n-1].Type == typ {
			parts[n-1].Text += ev.Text
			if ev.Signature != "" {
				parts[n-1].Signature = ev.Signature
			}
			continue
		}
		parts = append(parts, message.Part{Type: typ, Text: ev.Text, Signature: ev.Signature})
	}
	return message.Message{Role: message.RoleAssistant, Parts: append(parts, r.Calls...)}
}
