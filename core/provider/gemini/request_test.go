package gemini

import (
	"encoding/json"
	"reflect"
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
	if r := streamtest.Collect(testProvider(s.URL, edit...).Stream(t.Context(), req)); r.Err != nil {
		t.Fatalf("stream: %v", r.Err)
	}
	return s.Requests()[0]
}

// TestRequestShape checks a whole body: systemInstruction without the dynamic
// marker, roles user/model, signed thought parts sent back and unsigned ones dropped,
// function calls with their args as objects, results merged into one user turn, tools
// with sanitised schemas (a tool without properties has no parameters), and the
// generation config.
func TestRequestShape(t *testing.T) {
	req := provider.Request{
		Model:     "gemini-2.5-pro",
		MaxTokens: 2048,
		Messages: []message.Message{
			message.NewText(message.RoleSystem, "You are pincer.\n<!-- pincer:dynamic -->\ncwd: /w"),
			message.NewText(message.RoleUser, "list and read"),
			{Role: message.RoleAssistant, Parts: []message.Part{
				{Type: message.PartReasoning, Text: "plan", Signature: "T1"},
				{Type: message.PartReasoning, Text: "unsigned musing"},
				{Type: message.PartText, Text: "On it."},
				{Type: message.PartReasoning, Signature: "T2"},
				{Type: message.PartToolCall, ToolCallID: "gemini-call-r-0", ToolName: "ls", Input: "{}", Signature: "S1"},
				{Type: message.PartToolCall, ToolCallID: "call_x", ToolName: "read", Input: `{"path":"a.go"}`},
			}},
			message.NewToolResult("gemini-call-r-0", "ls", "a.go", false),
			message.NewToolResult("call_x", "", "no such file", true),
		},
		Tools: []provider.ToolSpec{
			{Name: "ls", Description: "List files", Schema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)},
			{Name: "read", Description: "Read", Schema: json.RawMessage(`{"$schema":"x","type":"object","properties":{"path":{"type":"string","default":"."}},"required":["path"],"additionalProperties":false}`)},
		},
	}
	got := capture(t, req, func(c *Config) { c.ThinkingBudget = -1; c.IncludeThoughts = true })
	want := streamtest.JSON(t, `{
		"systemInstruction": {"parts": [{"text": "You are pincer.\ncwd: /w"}]},
		"contents": [
			{"role": "user", "parts": [{"text": "list and read"}]},
			{"role": "model", "parts": [
				{"text": "plan", "thought": true, "thoughtSignature": "T1"},
				{"text": "On it."},
				{"text": "", "thoughtSignature": "T2"},
				{"functionCall": {"name": "ls", "args": {}}, "thoughtSignature": "S1"},
				{"functionCall": {"id": "call_x", "name": "read", "args": {"path": "a.go"}}}
			]},
			{"role": "user", "parts": [
				{"functionResponse": {"name": "ls", "response": {"output": "a.go"}}},
				{"functionResponse": {"id": "call_x", "name": "read", "response": {"error": "no such file"}}}
			]}
		],
		"tools": [{"functionDeclarations": [
			{"name": "ls", "description": "List files"},
			{"name": "read", "description": "Read", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}
		]}],
		"generationConfig": {"maxOutputTokens": 2048, "thinkingConfig": {"thinkingBudget": -1, "includeThoughts": true}}
	}`)
	if !reflect.DeepEqual(got.Body, want) {
		raw, _ := json.MarshalIndent(got.Body, "", "  ")
		t.Fatalf("body:\n%s", raw)
	}
}

// TestRequestMinimal: no system, no tools, no limits: only contents.
func TestRequestMinimal(t *testing.T) {
	got := capture(t, simpleRequest())
	want := streamtest.JSON(t, `{"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}`)
	if !reflect.DeepEqual(got.Body, want) {
		t.Fatalf("body %s", got.Raw)
	}
}
