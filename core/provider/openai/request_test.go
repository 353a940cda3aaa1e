package openai

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"pincer/core/message"
	"pincer/core/provider"
)

// captured is one request as the server saw it.
type captured struct {
	method, path string
	header       http.Header
	body         map[string]any
}

// captureRequest streams req through p (pointed at a recording server) and returns
// what was sent.
func captureRequest(t *testing.T, req provider.Request, edit ...func(*Config)) captured {
	t.Helper()
	var got captured
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		got = captured{method: r.Method, path: r.URL.Path, header: r.Header.Clone()}
		if err := json.Unmarshal(raw, &got.body); err != nil {
			t.Errorf("request body is not JSON: %v\n%s", err, raw)
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(okStream)
	}))
	defer srv.Close()
	p := testProvider(srv.URL+"/v1/", edit...)
	if r := collect(p.Stream(context.Background(), req)); r.err != nil {
		t.Fatalf("stream: %v", r.err)
	}
	return got
}

// jsonValue decodes s for comparison with a captured body.
func jsonValue(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad expectation %s: %v", s, err)
	}
	return v
}

func TestRequestTranscript(t *testing.T) {
	req := provider.Request{
		Model: "gpt-test",
		Messages: []message.Message{
			message.NewText(message.RoleSystem, "be brief"),
			message.NewText(message.RoleUser, "list files <here> & count"),
			{Role: message.RoleAssistant, Parts: []message.Part{
				{Type: message.PartReasoning, Text: "I should call ls."},
				{Type: message.PartText, Text: "Let me look."},
				{Type: message.PartToolCall, ToolCallID: "c1", ToolName: "ls", Input: `{"path":"."}`},
				{Type: message.PartToolCall, ToolCallID: "c2", ToolName: "read", Input: `{"path":`, Truncated: true},
			}},
			{Role: message.RoleTool, Parts: []message.Part{
				{Type: message.PartToolResult, ToolCallID: "c1", ToolName: "ls", Text: "a.go\nb.go"},
				{Type: message.PartToolResult, ToolCallID: "c2", ToolName: "read", Text: "invalid JSON", IsError: true},
			}},
			{Role: message.RoleAssistant, Parts: []message.Part{
				{Type: message.PartToolCall, ToolCallID: "c3", ToolName: "ls", Input: ""},
			}},
			message.NewToolResult("c3", "ls", "", false),
		},
		Tools: []provider.ToolSpec{
			{Name: "ls", Description: "List a directory.", Schema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)},
			{Name: "noargs", Description: "", Schema: nil},
		},
		MaxTokens: 1000,
	}
	got := captureRequest(t, req)
	want := jsonValue(t, `{
		"model": "gpt-test",
		"stream": true,
		"stream_options": {"include_usage": true},
		"max_tokens": 1000,
		"messages": [
			{"role": "system", "content": "be brief"},
			{"role": "user", "content": "list files <here> & count"},
			{"role": "assistant", "content": "Let me look.", "tool_calls": [
				{"id": "c1", "type": "function", "function": {"name": "ls", "arguments": "{\"path\":\".\"}"}},
				{"id": "c2", "type": "function", "function": {"name": "read", "arguments": "{}"}}
			]},
			{"role": "tool", "tool_call_id": "c1", "content": "a.go\nb.go"},
			{"role": "tool", "tool_call_id": "c2", "content": "invalid JSON"},
			{"role": "assistant", "content": null, "tool_calls": [
				{"id": "c3", "type": "function", "function": {"name": "ls", "arguments": "{}"}}
			]},
			{"role": "tool", "tool_call_id": "c3", "content": ""}
		],
		"tools": [
			{"type": "function", "function": {"name": "ls", "description": "List a directory.",
				"parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}},
			{"type": "function", "function": {"name": "noargs", "parameters": {"type": "object", "properties": {}}}}
		]
	}`)
	if !reflect.DeepEqual(got.body, want) {
		g, _ := json.MarshalIndent(got.body, "", "  ")
		t.Fatalf("body:\n%s", g)
	}
	if got.method != http.MethodPost || got.path != "/v1/chat/completions" {
		t.Errorf("%s %s", got.method, got.path)
	}
	for k, v := range map[string]string{"Authorization": "Bearer sk-test", "Content-Type": "application/json", "Accept": "text/event-stream"} {
		if got.header.Get(k) != v {
			t.Errorf("header %s = %q, want %q", k, got.header.Get(k), v)
		}
	}
}

func TestRequestOptions(t *testing.T) {
	base := provider.Request{Model: "m", Messages: []message.Message{
		message.NewText(message.RoleUser, "hi"),
		{Role: message.RoleAssistant, Parts: []message.Part{{Type: message.PartReasoning, Text: "thinking"}, {Type: message.PartText, Text: "hello"}}},
	}}

	t.Run("no tools, no max tokens, no key, extra headers", func(t *testing.T) {
		got := captureRequest(t, base, func(c *Config) {
			c.APIKey = ""
			c.Headers = map[string]string{"HTTP-Referer": "https://pincer.dev", "X-Title": "pincer"}
		})
		for _, k := range []string{"tools", "max_tokens", "max_completion_tokens"} {
			if _, ok := got.body[k]; ok {
				t.Errorf("%s sent", k)
			}
		}
		if _, ok := got.header["Authorization"]; ok {
			t.Error("Authorization sent without a key")
		}
		if got.header.Get("HTTP-Referer") != "https://pincer.dev" || got.header.Get("X-Title") != "pincer" {
			t.Errorf("headers = %v", got.header)
		}
		msgs := got.body["messages"].([]any)
		if _, ok := msgs[1].(map[string]any)["reasoning_content"]; ok {
			t.Error("reasoning_content sent without SendReasoning")
		}
	})

	t.Run("SendReasoning and max_completion_tokens", func(t *testing.T) {
		req := base
		req.MaxTokens = 64
		got := captureRequest(t, req, func(c *Config) {
			c.SendReasoning = true
			c.MaxTokensParam = "max_completion_tokens"
		})
		if got.body["max_completion_tokens"] != float64(64) || got.body["max_tokens"] != nil {
			t.Errorf("max tokens fields: %v / %v", got.body["max_completion_tokens"], got.body["max_tokens"])
		}
		msg := got.body["messages"].([]any)[1].(map[string]any)
		if msg["reasoning_content"] != "thinking" || msg["content"] != "hello" {
			t.Errorf("assistant message = %v", msg)
		}
	})
}

func TestNewDefaults(t *testing.T) {
	p := New(Config{})
	if p.Name() != "openai" || p.baseURL != DefaultBaseURL || p.stall != DefaultStallTimeout ||
		p.maxRetries != DefaultMaxRetries || p.retryBase != DefaultRetryBaseDelay ||
		p.maxTokensParam != "max_completion_tokens" || p.client != http.DefaultClient {
		t.Fatalf("defaults: %+v", p)
	}
	q := New(Config{Name: "deepseek", BaseURL: "https://api.deepseek.com/", MaxRetries: -1})
	if q.Name() != "deepseek" || q.baseURL != "https://api.deepseek.com" || q.maxRetries != 0 || q.maxTokensParam != "max_tokens" {
		t.Fatalf("deepseek: %+v", q)
	}
}

func TestSystemMarkerNotSent(t *testing.T) {
	p := New(Config{})
	msgs := p.convertMessages([]message.Message{message.NewText(message.RoleSystem, "static\n<!-- pincer:dynamic -->\ndynamic")})
	if got := *msgs[0].Content; got != "static\ndynamic" {
		t.Errorf("system content %q", got)
	}
}
