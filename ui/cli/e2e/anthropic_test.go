package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// anthropicFake is a scripted Anthropic Messages server speaking the real streaming
// format (message_start, content blocks with thinking/signature and tool_use with
// input_json_delta, message_delta, message_stop); it records every request body.
type anthropicFake struct {
	*httptest.Server
	mu       sync.Mutex
	requests [][]byte
}

func newAnthropicFake(t *testing.T) *anthropicFake {
	f := &anthropicFake{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.requests = append(f.requests, body)
		n := len(f.requests)
		f.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		send := func(event, data string) { fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, data) }
		send("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"usage":{"input_tokens":50,"cache_creation_input_tokens":1000,"cache_read_input_tokens":0,"output_tokens":1}}}`)
		if n == 1 {
			send("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`)
			send("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"I should read both files."}}`)
			send("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"SIG-abc123=="}}`)
			send("content_block_stop", `{"type":"content_block_stop","index":0}`)
			for i, name := range []string{"a.txt", "b.txt"} {
				idx := i + 1
				send("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":"toolu_%d","name":"Read","input":{}}}`, idx, idx))
				send("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":""}}`, idx))
				send("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":"{\"file_path\": \"%s\"}"}}`, idx, name))
				send("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, idx))
			}
			send("message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":80}}`)
		} else {
			send("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
			send("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Both files read."}}`)
			send("content_block_stop", `{"type":"content_block_stop","index":0}`)
			send("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}`)
		}
		send("message_stop", `{"type":"message_stop"}`)
	}))
	t.Cleanup(f.Close)
	return f
}

// TestAnthropicTurnThroughPincerRun: two parallel tool calls and a thinking block in
// Anthropic's format; the second request sends the thinking block back with its
// signature unchanged and carries the cache breakpoints (static system block, last
// tool, newest tool result). The API key reaches no file, event or output.
func TestAnthropicTurnThroughPincerRun(t *testing.T) {
	e := newEnv(t)
	e.write("a.txt", "alpha\n")
	e.write("b.txt", "beta\n")
	fake := newAnthropicFake(t)
	const key = "sk-ant-e2e-SECRET-7f3a"
	cmd := exec_(e, "run", "--model", "anthropic/claude-sonnet-4-5", "--base-url", fake.URL, "--output-format", "stream-json", "read a and b")
	cmd.Env = append(cmd.Env, "PINCER_API_KEY=", "ANTHROPIC_API_KEY="+key)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("pincer run: %v\n%s", err, errb.String())
	}
	if len(fake.requests) != 2 {
		t.Fatalf("%d requests, want 2", len(fake.requests))
	}
	var second struct {
		System []struct {
			Text         string          `json:"text"`
			CacheControl json.RawMessage `json:"cache_control"`
		} `json:"system"`
		Tools []struct {
			Name         string          `json:"name"`
			CacheControl json.RawMessage `json:"cache_control"`
		} `json:"tools"`
		Messages []struct {
			Role    string           `json:"role"`
			Content []map[string]any `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(fake.requests[1], &second); err != nil {
		t.Fatal(err)
	}
	if len(second.System) < 2 || second.System[0].CacheControl == nil || second.System[len(second.System)-1].CacheControl != nil {
		t.Errorf("system blocks: want a cached static block then an uncached dynamic one: %+v", second.System)
	}
	if n := len(second.Tools); n == 0 || second.Tools[n-1].CacheControl == nil {
		t.Errorf("the last tool carries no cache breakpoint")
	}
	var thinking map[string]any
	var results []map[string]any
	for _, m := range second.Messages {
		for _, c := range m.Content {
			switch c["type"] {
			case "thinking":
				thinking = c
			case "tool_result":
				results = append(results, c)
			}
		}
	}
	if thinking == nil || thinking["signature"] != "SIG-abc123==" || thinking["thinking"] != "I should read both files." {
		t.Errorf("thinking block sent back: %v", thinking)
	}
	if len(results) != 2 || results[1]["cache_control"] == nil || results[0]["cache_control"] != nil {
		t.Errorf("tool results: want two, the newest with a cache breakpoint: %v", results)
	}
	if !strings.Contains(out.String(), "Both files read.") {
		t.Errorf("output: %s", out.String())
	}
	// The key is nowhere: not in the output, the store, the config dir or events.
	if strings.Contains(out.String()+errb.String(), key) {
		t.Error("the API key was printed")
	}
	_ = filepath.Walk(e.home, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if b, _ := os.ReadFile(path); bytes.Contains(b, []byte(key)) {
				t.Errorf("the API key is in %s", path)
			}
		}
		return nil
	})
}

// exec_ is e.command with arbitrary arguments (no --base-url of the Chat fake).
func exec_(e *env, args ...string) *exec.Cmd { return e.command(args...) }
