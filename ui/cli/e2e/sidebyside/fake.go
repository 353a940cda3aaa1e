package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// fakeModel is the one scripted model every agent talks to: an
// OpenAI-compatible Chat Completions endpoint on loopback (the wire format
// of core/provider/openai/openaitest: its Chunks, as SSE). A request whose
// newest user message contains streamWord and that offers tools (the agent's
// own turn, not a title request) gets the paced stream: a first piece, a
// pause of Hold, then Deltas pieces of 8 cells each, Gap apart. Around the
// paced part it hands the harness a streamMark on Marks and waits for the
// harness to close its Ack, so the harness can start and stop its counters
// exactly around the deltas. Any other request gets a short answer.
type fakeModel struct {
	URL    string // base URL, ends in /v1
	Deltas int
	Gap    time.Duration
	Hold   time.Duration
	Marks  chan streamMark
	srv    *http.Server
}

// streamMark is the paced stream's beginning (End false: the first delta is
// about to be sent) or its end (End true: the last delta was sent).
type streamMark struct {
	End bool
	Ack chan struct{}
}

const streamWord = "stream"

// deltaText is the i-th paced piece: 8 bytes, 8 cells ("w000042 ").
func deltaText(i int) string { return fmt.Sprintf("w%06d ", i) }

func startFake(deltas int, gap, hold time.Duration) (*fakeModel, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	f := &fakeModel{URL: "http://" + ln.Addr().String() + "/v1", Deltas: deltas, Gap: gap, Hold: hold,
		Marks: make(chan streamMark)}
	f.srv = &http.Server{Handler: http.HandlerFunc(f.handle)}
	go func() { _ = f.srv.Serve(ln) }()
	return f, nil
}

func (f *fakeModel) Close() { _ = f.srv.Close() }

func (f *fakeModel) handle(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"m","object":"model","owned_by":"fake"}]}`)
		return
	}
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.Error(w, `{"error":{"message":"no such route"}}`, http.StatusNotFound)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req map[string]any
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	tools, _ := req["tools"].([]any)
	paced := len(tools) > 0 && strings.Contains(lastUserText(req), streamWord)
	if stream, _ := req["stream"].(bool); !stream {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"chatcmpl-fake","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Fake title"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":2,"total_tokens":12}}`)
		return
	}
	rep := openaitest.Reply{Text: "done"}
	if paced {
		var b strings.Builder
		b.WriteString("Ready.\n\n") // 8 bytes: the first piece, drawn before the pause
		for i := 0; i < f.Deltas; i++ {
			b.WriteString(deltaText(i))
		}
		rep.Text = b.String()
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fl, _ := w.(http.Flusher)
	send := func(v any) bool {
		b, _ := json.Marshal(v)
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return false
		}
		if fl != nil {
			fl.Flush()
		}
		return true
	}
	chunks := openaitest.Chunks(rep)
	// chunks: role, the text pieces, finish, usage.
	for i, ch := range chunks {
		if paced && i == 2 {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(f.Hold):
			}
			f.mark(r, false)
		}
		if paced && i >= 2 && i < len(chunks)-2 {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(f.Gap):
			}
		}
		if paced && i == len(chunks)-2 {
			f.mark(r, true)
		}
		if !send(ch) {
			return
		}
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// mark hands the harness a streamMark and waits for its Ack.
func (f *fakeModel) mark(r *http.Request, end bool) {
	m := streamMark{End: end, Ack: make(chan struct{})}
	select {
	case f.Marks <- m:
	case <-r.Context().Done():
		return
	case <-time.After(30 * time.Second):
		return
	}
	select {
	case <-m.Ack:
	case <-r.Context().Done():
	}
}

// lastUserText is the text of the request's newest user message.
func lastUserText(req map[string]any) string {
	msgs, _ := req["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		m, _ := msgs[i].(map[string]any)
		if m["role"] != "user" {
			continue
		}
		switch c := m["content"].(type) {
		case string:
			return c
		case []any:
			var b strings.Builder
			for _, p := range c {
				if pm, ok := p.(map[string]any); ok {
					if t, ok := pm["text"].(string); ok {
						b.WriteString(t)
					}
				}
			}
			return b.String()
		}
	}
	return ""
}
