package responses

import (
	"encoding/json"
	"reflect"
	"testing"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/streamtest"
)

// TestRequestShape checks a whole body: instructions from the system message (marker
// line removed), input items in order, tools as non-strict function tools, stateless.
func TestRequestShape(t *testing.T) {
	req := provider.Request{
		Model:     "gpt-5",
		MaxTokens: 4000,
		Messages: []message.Message{
			message.NewText(message.RoleSystem, "You are pincer.\n<!-- pincer:dynamic -->\ncwd: /w"),
			message.NewText(message.RoleUser, "read <a> & b"),
			{Role: message.RoleAssistant, Parts: []message.Part{
				{Type: message.PartReasoning, Text: "thinking"},
				{Type: message.PartText, Text: "Reading."},
				{Type: message.PartToolCall, ToolCallID: "call_1", ToolName: "read", Input: `{"path":"a"}`},
				{Type: message.PartToolCall, ToolCallID: "call_2", ToolName: "read", Input: `{"path":`},
			}},
			message.NewToolResult("call_1", "read", "A", false),
			message.NewToolResult("call_2", "read", "", true),
		},
		Tools: []provider.ToolSpec{{Name: "read", Description: "Read", Schema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}, {Name: "now"}},
	}
	s := streamtest.NewScript(t, streamtest.Stream(okStream))
	p := testProvider(s.URL+"/v1/", func(c *Config) { c.ReasoningEffort = "high"; c.ReasoningSummary = "auto" })
	if r := streamtest.Collect(p.Stream(t.Context(), req)); r.Err != nil {
		t.Fatal(r.Err)
	}
	got := s.Requests()[0]
	if got.Path != "/v1/responses" || got.Header.Get("Authorization") != "Bearer sk-test" {
		t.Errorf("path %s headers %v", got.Path, got.Header)
	}
	want := streamtest.JSON(t, `{
		"model": "gpt-5",
		"instructions": "You are pincer.\ncwd: /w",
		"input": [
			{"type": "message", "role": "user", "content": "read <a> & b"},
			{"type": "message", "role": "assistant", "content": "Reading."},
			{"type": "function_call", "call_id": "call_1", "name": "read", "arguments": "{\"path\":\"a\"}"},
			{"type": "function_call", "call_id": "call_2", "name": "read", "arguments": "{}"},
			{"type": "function_call_output", "call_id": "call_1", "output": "A"},
			{"type": "function_call_output", "call_id": "call_2", "output": ""}
		],
		"tools": [
			{"type": "function", "name": "read", "description": "Read", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}, "strict": false},
			{"type": "function", "name": "now", "parameters": {"type": "object", "properties": {}}, "strict": false}
		],
		"stream": true,
		"store": false,
		"max_output_tokens": 4000,
		"reasoning": {"effort": "high", "summary": "auto"}
	}`)
	if !reflect.DeepEqual(got.Body, want) {
		raw, _ := json.MarshalIndent(got.Body, "", "  ")
		t.Fatalf("body:\n%s", raw)
	}
}
