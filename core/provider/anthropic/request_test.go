package anthropic

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/streamtest"
)

// capture streams req through a provider pointed at a recording server and returns
// what the server saw.
func capture(t *testing.T, req provider.Request, edit ...func(*Config)) streamtest.Request {
	t.Helper()
	s := streamtest.NewScript(t, streamtest.Stream(okStream))
	p := testProvider(s.URL, edit...)
	if r := streamtest.Collect(p.Stream(context.Background(), req)); r.Err != nil {
		t.Fatalf("stream: %v", r.Err)
	}
	reqs := s.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	return reqs[0]
}

// toolLoop is a transcript in the middle of a tool loop with thinking on.
func toolLoop() provider.Request {
	assistant := message.Message{Role: message.RoleAssistant, Parts: []message.Part{
		{Type: message.PartReasoning, Text: "Let me look.", Signature: "sig-1"},
		{Type: message.PartText, Text: "Checking."},
		{Type: message.PartToolCall, ToolCallID: "toolu_a", ToolName: "read", Input: `{"path":"a.go"}`},
		{Type: message.PartToolCall, ToolCallID: "toolu_b", ToolName: "ls", Input: `{"path":`}, // cut: sent as {}
	}}
	return provider.Request{
		Model:     "claude-sonnet-4-6",
		MaxTokens: 1000,
		Messages: []message.Message{
			message.NewText(message.RoleSystem, "You are pincer.\nBe brief.\n"+DynamicMarker+"\nDate: today\ncwd: /w"),
			message.NewText(message.RoleUser, "look at a.go"),
			assistant,
			message.NewToolResult("toolu_a", "read", "package a", false),
			message.NewToolResult("toolu_b", "ls", "invalid input", true),
			message.NewText(message.RoleUser, "and then?"),
		},
		Tools: []provider.ToolSpec{
			{Name: "read", Description: "Read a file", Schema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
			{Name: "ls", Description: "List", Schema: nil},
		},
	}
}

// TestRequestShape checks the whole JSON body of a tool-loop request: the system
// blocks split at the marker, the thinking block sent back unchanged, consecutive tool
// results merged into one user message, and the three cache breakpoints exactly on
// the static system block, the last tool and the newest tool_result.
func TestRequestShape(t *testing.T) {
	got := capture(t, toolLoop())
	if got.Method != "POST" || got.Path != "/v1/messages" {
		t.Fatalf("request %s %s", got.Method, got.Path)
	}
	want := streamtest.JSON(t, `{
		"model": "claude-sonnet-4-6",
		"max_tokens": 1000,
		"stream": true,
		"system": [
			{"type": "text", "text": "You are pincer.\nBe brief.", "cache_control": {"type": "ephemeral"}},
			{"type": "text", "text": "Date: today\ncwd: /w"}
		],
		"messages": [
			{"role": "user", "content": [{"type": "text", "text": "look at a.go"}]},
			{"role": "assistant", "content": [
				{"type": "thinking", "thinking": "Let me look.", "signature": "sig-1"},
				{"type": "text", "text": "Checking."},
				{"type": "tool_use", "id": "toolu_a", "name": "read", "input": {"path": "a.go"}},
				{"type": "tool_use", "id": "toolu_b", "name": "ls", "input": {}}
			]},
			{"role": "user", "content": [
				{"type": "tool_result", "tool_use_id": "toolu_a", "content": [{"type": "text", "text": "package a"}]},
				{"type": "tool_result", "tool_use_id": "toolu_b", "is_error": true,
				 "content": [{"type": "text", "text": "invalid input"}], "cache_control": {"type": "ephemeral"}},
				{"type": "text", "text": "and then?"}
			]}
		],
		"tools": [
			{"name": "read", "description": "Read a file",
			 "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}},
			{"name": "ls", "description": "List", "input_schema": {"type": "object", "properties": {}},
			 "cache_control": {"type": "ephemeral"}}
		]
	}`)
	if !reflect.DeepEqual(got.Body, want) {
		g, _ := json.MarshalIndent(got.Body, "", "  ")
		t.Fatalf("body:\n%s", g)
	}
	if n := strings.Count(string(got.Raw), `"cache_control"`); n != 3 {
		t.Errorf("%d cache_control breakpoints, want 3 (Anthropic allows at most 4)", n)
	}
}

func TestSystemBlocks(t *testing.T) {
	eph := map[string]any{"type": "ephemeral"}
	tests := []struct {
		name   string
		system []string
		want   []map[string]any
	}{
		{"no marker: one cached block", []string{"static only"},
			[]map[string]any{{"type": "text", "text": "static only", "cache_control": eph}}},
		{"marker splits", []string{"a\nb\n" + DynamicMarker + "\nc"},
			[]map[string]any{{"type": "text", "text": "a\nb", "cache_control": eph}, {"type": "text", "text": "c"}}},
		{"CRLF marker line", []string{"a\r\n" + DynamicMarker + "\r\nc"},
			[]map[string]any{{"type": "text", "text": "a", "cache_control": eph}, {"type": "text", "text": "c"}}},
		{"marker not alone on its line is text", []string{"a " + DynamicMarker + "\nc"},
			[]map[string]any{{"type": "text", "text": "a " + DynamicMarker + "\nc", "cache_control": eph}}},
		{"empty dynamic part", []string{"a\n" + DynamicMarker + "\n"},
			[]map[string]any{{"type": "text", "text": "a", "cache_control": eph}}},
		{"empty static part: nothing cached", []string{DynamicMarker + "\nc"},
			[]map[string]any{{"type": "text", "text": "c"}}},
		{"two system messages: one breakpoint, on the last static part", []string{"a", "b\n" + DynamicMarker + "\nc"},
			[]map[string]any{{"type": "text", "text": "a"}, {"type": "text", "text": "b", "cache_control": eph}, {"type": "text", "text": "c"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := json.Marshal(systemBlocks(tc.system))
			if err != nil {
				t.Fatal(err)
			}
			var got []map[string]any
			_ = json.Unmarshal(raw, &got)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("blocks = %s", raw)
			}
		})
	}
}

// TestNoToolResultNoBreakpoint: a first turn has no tool_result to mark, and a request
// without tools sends no tools array.
func TestNoToolResultNoBreakpoint(t *testing.T) {
	got := capture(t, simpleRequest())
	if n := strings.Count(string(got.Raw), `"cache_control"`); n != 0 {
		t.Errorf("%d breakpoints in %s", n, got.Raw)
	}
	if _, ok := got.Body["tools"]; ok {
		t.Error("tools sent without tools")
	}
	if got.Body["max_tokens"] != float64(DefaultMaxTokens) {
		t.Errorf("max_tokens = %v, want the default %d", got.Body["max_tokens"], DefaultMaxTokens)
	}
}

// TestReasoningSentBack: a signed reasoning part goes back as a thinking block with
// its signature byte for byte; unsigned reasoning (another provider's, a cut stream's)
// is dropped; a redacted block goes back as redacted_thinking.
func TestReasoningSentBack(t *testing.T) {
	sig := "EvQBCkYICxgCKkAx+/=="
	req := provider.Request{Model: "m", Messages: []message.Message{
		message.NewText(message.RoleUser, "q"),
		{Role: message.RoleAssistant, Parts: []message.Part{
			{Type: message.PartReasoning, Signature: redactedSignature("ENCRYPTED")},
			{Type: message.PartReasoning, Text: "think ÷", Signature: sig},
			{Type: message.PartReasoning, Text: "unsigned"},
			{Type: message.PartText, Text: ""},
			{Type: message.PartText, Text: "answer"},
		}},
		message.NewText(message.RoleUser, "next"),
	}}
	got := capture(t, req)
	msgs := got.Body["messages"].([]any)
	want := streamtest.JSON(t, `[
		{"type": "redacted_thinking", "data": "ENCRYPTED"},
		{"type": "thinking", "thinking": "think ÷", "signature": "EvQBCkYICxgCKkAx+/=="},
		{"type": "text", "text": "answer"}
	]`)
	if got := msgs[1].(map[string]any)["content"]; !reflect.DeepEqual(got, want) {
		t.Fatalf("assistant content = %v", got)
	}
}

func TestAuthHeaderAndBaseURL(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(*Config)
		suffix string
		check  func(t *testing.T, r streamtest.Request)
	}{
		{"x-api-key by default", nil, "", func(t *testing.T, r streamtest.Request) {
			if r.Header.Get("X-Api-Key") != "sk-ant-test" || r.Header.Get("Authorization") != "" {
				t.Errorf("headers %v", r.Header)
			}
			if r.Header.Get("Anthropic-Version") == "" {
				t.Error("no anthropic-version header")
			}
		}},
		{"bearer", func(c *Config) { c.AuthHeader = AuthBearer }, "", func(t *testing.T, r streamtest.Request) {
			if r.Header.Get("Authorization") != "Bearer sk-ant-test" || r.Header.Get("X-Api-Key") != "" {
				t.Errorf("headers %v", r.Header)
			}
		}},
		{"no key, extra header", func(c *Config) { c.APIKey = ""; c.Headers = map[string]string{"anthropic-beta": "x"} }, "", func(t *testing.T, r streamtest.Request) {
			if r.Header.Get("Authorization") != "" || r.Header.Get("X-Api-Key") != "" || r.Header.Get("Anthropic-Beta") != "x" {
				t.Errorf("headers %v", r.Header)
			}
		}},
		{"base URL ending in /v1", nil, "/v1/", func(t *testing.T, r streamtest.Request) {
			if r.Path != "/v1/messages" {
				t.Errorf("path %s", r.Path)
			}
		}},
		{"base URL with a path prefix", nil, "/proxy", func(t *testing.T, r streamtest.Request) {
			if r.Path != "/proxy/v1/messages" {
				t.Errorf("path %s", r.Path)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("ANTHROPIC_API_KEY", "from-env-must-not-be-used")
			s := streamtest.NewScript(t, streamtest.Stream(okStream))
			edit := func(c *Config) {
				c.BaseURL = s.URL + tc.suffix
				if tc.edit != nil {
					tc.edit(c)
				}
			}
			if r := run(t, testProvider("", edit)); r.Err != nil {
				t.Fatal(r.Err)
			}
			tc.check(t, s.Requests()[0])
		})
	}
}

func TestThinkingConfig(t *testing.T) {
	got := capture(t, simpleRequest(), func(c *Config) { c.ThinkingBudget = 10000; c.MaxTokens = 4096 })
	if !reflect.DeepEqual(got.Body["thinking"], streamtest.JSON(t, `{"type":"enabled","budget_tokens":10000}`)) {
		t.Errorf("thinking = %v", got.Body["thinking"])
	}
	if got.Body["max_tokens"] != float64(14096) {
		t.Errorf("max_tokens = %v, want budget + 4096", got.Body["max_tokens"])
	}
	got = capture(t, simpleRequest(), func(c *Config) { c.ThinkingBudget = -1 })
	if !reflect.DeepEqual(got.Body["thinking"], streamtest.JSON(t, `{"type":"adaptive"}`)) {
		t.Errorf("thinking = %v", got.Body["thinking"])
	}
	got = capture(t, simpleRequest())
	if _, ok := got.Body["thinking"]; ok {
		t.Errorf("thinking sent by default: %v", got.Body["thinking"])
	}
}
