// Package openaitest is the openai adapter's test server: a scripted OpenAI Chat
// Completions server for end-to-end tests and benchmarks, an httptest server that
// answers POST /v1/chat/completions with the real streaming wire format (SSE chunks,
// tool-call fragments, a usage chunk, [DONE]) and records every request body it got.
// No test in pincer reaches a real provider; tests that need no HTTP script turns
// with core/provider/providertest instead.
package openaitest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Call is a tool call the fake model makes.
type Call struct {
	ID, Name, Args string
}

// Reply is one scripted response. With Status set (≠ 200) the server answers that
// status with Body. Otherwise it streams Reasoning (as reasoning_content), Text and
// ToolCalls, then Finish (default "stop", or "tool_calls" when there are calls) and a
// usage chunk. Hold, when set, pauses the stream after the second chunk (the first piece of
// reasoning or text, when there is one) until the request is cancelled or Hold elapses.
type Reply struct {
	Status    int
	Body      string
	Reasoning string
	Text      string
	ToolCalls []Call
	Finish    string
	Hold      time.Duration
	// Pace, when set, is the pause after each chunk: a model's token rate
	// (1,000 text deltas at Pace 2ms stream for about 2 s).
	Pace time.Duration
	// When, when set, makes the reply answer only a request whose first user
	// message contains When (a subagent's prompt, a tab's first prompt), so
	// sessions whose requests interleave each follow their own script: the
	// first reply in script order that fits the request is used. A reply
	// without When fits any request.
	When string
}

// Server is a running fake. Replies are used in order; when they run out, Default is
// used (a plain "done" answer unless set).
type Server struct {
	*httptest.Server
	Default Reply
	// refuseTools, when set (RefuseTools), is the body of a 400 answering
	// every request that carries tools; guarded by mu.
	refuseTools string

	mu       sync.Mutex
	replies  []Reply
	requests []map[string]any
}

// New starts a server that will answer with replies in order.
func New(replies ...Reply) *Server {
	s := &Server{replies: replies, Default: Reply{Text: "done"}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	return s
}

// BaseURL is the URL to pass as --base-url (it ends in /v1).
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Requests returns the decoded JSON bodies received so far.
func (s *Server) Requests() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]any(nil), s.requests...)
}

// Push appends replies to the script.
func (s *Server) Push(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies = append(s.replies, replies...)
}

// next takes the first reply that fits req (Reply.When), or Default.
func (s *Server) next(req map[string]any) Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	first := firstUserText(req)
	for i, r := range s.replies {
		if r.When == "" || strings.Contains(first, r.When) {
			s.replies = append(s.replies[:i:i], s.replies[i+1:]...)
			return r
		}
	}
	return s.Default
}

// firstUserText is the text of the request's first user message that is not
// a <system-reminder> ("" when none): a string content, or the text parts of
// a list.
func firstUserText(req map[string]any) string {
	msgs, _ := req["messages"].([]any)
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if mm["role"] != "user" {
			continue
		}
		var text string
		switch c := mm["content"].(type) {
		case string:
			text = c
		case []any:
			var b strings.Builder
			for _, p := range c {
				if pm, ok := p.(map[string]any); ok {
					if t, ok := pm["text"].(string); ok {
						b.WriteString(t)
					}
				}
			}
			text = b.String()
		}
		if !strings.HasPrefix(strings.TrimSpace(text), "<system-reminder>") {
			return text
		}
	}
	return ""
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, `{"error":{"message":"no such route"}}`, http.StatusNotFound)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req map[string]any
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()

	s.mu.Lock()
	refuse := s.refuseTools
	s.mu.Unlock()
	if tl, _ := req["tools"].([]any); refuse != "" && len(tl) > 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, refuse)
		return
	}
	rep := s.next(req)
	if rep.Status != 0 && rep.Status != http.StatusOK {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.Status)
		_, _ = io.WriteString(w, rep.Body)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fl, _ := w.(http.Flusher)
	send := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if fl != nil {
			fl.Flush()
		}
	}
	chunks := Chunks(rep)
	for i, ch := range chunks {
		send(ch)
		if rep.Pace > 0 {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(rep.Pace):
			}
		}
		if i == min(1, len(chunks)-1) && rep.Hold > 0 {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(rep.Hold):
			}
		}
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// Chunks returns the chat.completion.chunk objects streamed for rep: a role chunk,
// reasoning and text in pieces of up to 8 bytes, each tool call as a header fragment
// and two argument fragments, a finish chunk and a usage-only chunk.
func Chunks(rep Reply) []map[string]any {
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": "fake",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	out := []map[string]any{chunk(map[string]any{"role": "assistant", "content": ""}, nil)}
	for _, piece := range split(rep.Reasoning, 8) {
		out = append(out, chunk(map[string]any{"reasoning_content": piece}, nil))
	}
	for _, piece := range split(rep.Text, 8) {
		out = append(out, chunk(map[string]any{"content": piece}, nil))
	}
	for i, c := range rep.ToolCalls {
		half := len(c.Args) / 2
		for half > 0 && half < len(c.Args) && !utf8.RuneStart(c.Args[half]) {
			half-- // never inside a UTF-8 character, as split
		}
		out = append(out,
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": c.ID, "type": "function",
				"function": map[string]any{"name": c.Name, "arguments": ""}}}}, nil),
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i,
				"function": map[string]any{"arguments": c.Args[:half]}}}}, nil),
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i,
				"function": map[string]any{"arguments": c.Args[half:]}}}}, nil))
	}
	finish := rep.Finish
	if finish == "" {
		finish = "stop"
		if len(rep.ToolCalls) > 0 {
			finish = "tool_calls"
		}
	}
	out = append(out, chunk(map[string]any{}, finish))
	out = append(out, map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": "fake",
		"choices": []any{}, "usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}})
	return out
}

// split cuts s into pieces of at most n bytes, never inside a UTF-8 character
// (a JSON string cannot carry half a character, and real providers never send one).
func split(s string, n int) []string {
	var out []string
	for len(s) > n {
		cut := n
		for cut > 1 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

// RefuseTools makes the server answer every request that carries tools,
// before any reply is used, with a 400 whose body is body: a model without
// function calling behind Ollama answers `{"error":"MODEL does not support
// tools"}`. "" turns it off. Safe to call while requests are served.
func (s *Server) RefuseTools(body string) {
	s.mu.Lock()
	s.refuseTools = body
	s.mu.Unlock()
}
