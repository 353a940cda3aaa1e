package e2e

// WebSearch through Anthropic's server-side web search tool in `pincer run`:
// declared only when WebSearch is allowed; the server's search call and results
// are shown as a WebSearch call, kept in the session and sent back unchanged on
// --continue.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
)

// searchFake is an Anthropic Messages server: its first answer is the capture
// core/provider/anthropic/testdata/messages-web-search.txt (a server-side search
// with cited text), later ones a plain text answer. It records request bodies.
type searchFake struct {
	*httptest.Server
	mu       sync.Mutex
	requests []map[string]any
}

func newSearchFake(t *testing.T) *searchFake {
	raw, err := os.ReadFile("../../../core/provider/anthropic/testdata/messages-web-search.txt")
	if err != nil {
		t.Fatal(err)
	}
	_, search, ok := strings.Cut(string(raw), "\n---\n")
	if !ok {
		t.Fatal("fixture without ---")
	}
	f := &searchFake{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req map[string]any
		_ = json.Unmarshal(body, &req)
		f.mu.Lock()
		f.requests = append(f.requests, req)
		n := len(f.requests)
		f.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		if n == 1 {
			fmt.Fprint(w, search)
			return
		}
		send := func(event, data string) { fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, data) }
		send("message_start", `{"type":"message_start","message":{"id":"msg_2","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"usage":{"input_tokens":50,"output_tokens":1}}}`)
		send("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
		send("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"You are welcome."}}`)
		send("content_block_stop", `{"type":"content_block_stop","index":0}`)
		send("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}`)
		send("message_stop", `{"type":"message_stop"}`)
	}))
	t.Cleanup(f.Close)
	return f
}

// webSearchDecl is the web_search tool a request declares, nil when none.
func webSearchDecl(req map[string]any) map[string]any {
	tools, _ := req["tools"].([]any)
	for _, t := range tools {
		if m, _ := t.(map[string]any); m["type"] == "web_search_20250305" {
			return m
		}
	}
	return nil
}

func TestAnthropicServerWebSearchRun(t *testing.T) {
	e := newEnv(t)
	fake := newSearchFake(t)
	run := func(args ...string) string {
		t.Helper()
		cmd := exec_(e, append([]string{"run", "--model", "anthropic/claude-sonnet-4-5", "--base-url", fake.URL, "--output-format", "stream-json"}, args...)...)
		cmd.Env = append(cmd.Env, "PINCER_API_KEY=", "ANTHROPIC_API_KEY=sk-ant-e2e")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("pincer run %v: %v\n%s\n%s", args, err, errb.String(), out.String())
		}
		return out.String()
	}

	out := run("--allowed-tools", "WebSearch", "what is new in Go?")
	parseStream(t, out)
	decl := webSearchDecl(fake.reqs()[0])
	if decl == nil || decl["name"] != "web_search" || decl["max_uses"] != float64(25) {
		t.Fatalf("first request declares %v", decl)
	}
	for _, want := range []string{`"name":"WebSearch"`, `WebSearch \"go 1.26 release\"`,
		`Go 1.26 Release Notes \u003chttps://go.dev/doc/go1.26\u003e`, "Go 1.26 is out."} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}

	// --continue: the search call and its results go back unchanged; one search
	// of the cap is used.
	run("--continue", "--allowed-tools", "WebSearch", "thanks")
	second := fake.reqs()[1]
	if decl := webSearchDecl(second); decl == nil || decl["max_uses"] != float64(24) {
		t.Errorf("second request declares %v", decl)
	}
	var blocks []string
	msgs, _ := second["messages"].([]any)
	for _, m := range msgs {
		content, _ := m.(map[string]any)["content"].([]any)
		for _, c := range content {
			b, _ := json.Marshal(c)
			blocks = append(blocks, string(b))
		}
	}
	all := strings.Join(blocks, "\n")
	for _, want := range []string{
		`{"id":"srvtoolu_01","input":{"query":"go 1.26 release"},"name":"web_search","type":"server_tool_use"}`,
		`"encrypted_content":"EqgfCioIARgBIiQ3"`, `"tool_use_id":"srvtoolu_01","type":"web_search_tool_result"`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("second request lacks %s:\n%s", want, all)
		}
	}

	// Without a rule allowing WebSearch (default mode would ask, and nobody can
	// be asked about a search the server runs), the tool is not declared.
	run("no search please")
	if decl := webSearchDecl(fake.reqs()[2]); decl != nil {
		t.Errorf("declared without permission: %v", decl)
	}
}

// reqs is a copy of the requests the fake has received so far.
func (f *searchFake) reqs() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.requests...)
}
