package openai

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
	"time"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/streamtest"
)

// captureRequest streams req through p (pointed at a recording server) and returns
// what was sent.
func captureRequest(t *testing.T, req provider.Request, edit ...func(*Config)) streamtest.Request {
	t.Helper()
	s := streamtest.NewScript(t, streamtest.Stream(okStream))
	p := testProvider(s.URL+"/v1/", edit...)
	if r := streamtest.Collect(p.Stream(context.Background(), req)); r.Err != nil {
		t.Fatalf("stream: %v", r.Err)
	}
	got := s.Requests()[0]
	if err := json.Unmarshal(got.Raw, new(map[string]any)); err != nil {
		t.Errorf("request body is not JSON: %v\n%s", err, got.Raw)
	}
	return got
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
	want := streamtest.JSON(t, `{
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
	if !reflect.DeepEqual(got.Body, want) {
		g, _ := json.MarshalIndent(got.Body, "", "  ")
		t.Fatalf("body:\n%s", g)
	}
	if got.Method != http.MethodPost || got.Path != "/v1/chat/completions" {
		t.Errorf("%s %s", got.Method, got.Path)
	}
	for k, v := range map[string]string{"Authorization": "Bearer sk-test", "Content-Type": "application/json", "Accept": "text/event-stream"} {
		if got.Header.Get(k) != v {
			t.Errorf("header %s = %q, want %q", k, got.Header.Get(k), v)
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
			if _, ok := got.Body[k]; ok {
				t.Errorf("%s sent", k)
			}
		}
		if _, ok := got.Header["Authorization"]; ok {
			t.Error("Authorization sent without a key")
		}
		if got.Header.Get("HTTP-Referer") != "https://pincer.dev" || got.Header.Get("X-Title") != "pincer" {
			t.Errorf("headers = %v", got.Header)
		}
		msgs := got.Body["messages"].([]any)
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
		if got.Body["max_completion_tokens"] != float64(64) || got.Body["max_tokens"] != nil {
			t.Errorf("max tokens fields: %v / %v", got.Body["max_completion_tokens"], got.Body["max_tokens"])
		}
		msg := got.Body["messages"].([]any)[1].(map[string]any)
		if msg["reasoning_content"] != "thinking" || msg["content"] != "hello" {
			t.Errorf("assistant message = %v", msg)
		}
	})
}

func TestNewDefaults(t *testing.T) {
	p := New(Config{})
	if p.Name() != "openai" || p.conn.BaseURL != DefaultBaseURL || p.conn.Caller.Stall != provider.DefaultStallTimeout ||
		p.conn.Retry.Max != 3 || p.conn.Retry.Base != time.Second ||
		p.maxTokensParam != "max_completion_tokens" || p.conn.Caller.Client != http.DefaultClient {
		t.Fatalf("defaults: %+v", p)
	}
	q := New(Config{HTTPConfig: provider.HTTPConfig{Name: "deepseek", BaseURL: "https://api.deepseek.com/", MaxRetries: -1}})
	if q.Name() != "deepseek" || q.conn.BaseURL != "https://api.deepseek.com" || q.conn.Retry.Max != 0 || q.maxTokensParam != "max_tokens" {
		t.Fatalf("deepseek: %+v", q)
	}
}

func TestSystemMarkerNotSent(t *testing.T) {
	p := New(Config{})
	msgs := p.convertMessages([]message.Message{message.NewText(message.RoleSystem, "static\n<!-- pincer:dynamic -->\ndynamic")}, false)
	if got := *msgs[0].Content; got != "static\ndynamic" {
		t.Errorf("system content %q", got)
	}
}

func TestReasoningSentBackOnlyForTheCurrentTurn(t *testing.T) {
	p := New(Config{SendReasoning: true})
	withReasoning := func(r string) message.Message {
		return message.Message{Role: message.RoleAssistant, Parts: []message.Part{{Type: message.PartReasoning, Text: r},
			{Type: message.PartToolCall, ToolCallID: "c", ToolName: "Read", Input: "{}"}}}
	}
	msgs := p.convertMessages([]message.Message{
		message.NewText(message.RoleUser, "first"), withReasoning("old thoughts"), message.NewToolResult("c", "Read", "r", false),
		message.NewText(message.RoleUser, "second"), withReasoning("current thoughts"),
	}, true)
	if msgs[1].ReasoningContent != nil || msgs[4].ReasoningContent == nil || *msgs[4].ReasoningContent != "current thoughts" {
		t.Errorf("reasoning_content: earlier %v, current %v", msgs[1].ReasoningContent, msgs[4].ReasoningContent)
	}
}
