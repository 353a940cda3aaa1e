package gemini

import (
	"encoding/json"
	"reflect"
	"testing"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/streamtest"
)

// TestScriptedTurn runs a whole tool loop against a scripted server: text, a function
// call (with a thought signature), the tool result sent back, then the answer.
func TestScriptedTurn(t *testing.T) {
	first := chunks(
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"Let me read it."}]}}],"responseId":"T1"}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"read","args":{"path":"go.mod"}},"thoughtSignature":"SIG1"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":8},"responseId":"T1"}`)
	second := chunks(
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"It declares module pincer."}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":70,"candidatesTokenCount":6},"responseId":"T2"}`)
	s := streamtest.NewScript(t, streamtest.Stream(first), streamtest.Stream(second))
	p := testProvider(s.URL)
	tools := []provider.ToolSpec{{Name: "read", Description: "Read a file",
		Schema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`)}}
	msgs := []message.Message{
		message.NewText(message.RoleSystem, "You are pincer."),
		message.NewText(message.RoleUser, "What is in go.mod?"),
	}

	r1 := streamtest.Collect(p.Stream(t.Context(), provider.Request{Model: "gemini-test", Messages: msgs, Tools: tools}))
	if r1.Err != nil || r1.Text != "Let me read it." || r1.Finish != "STOP" {
		t.Fatalf("first: err %v text %q finish %q", r1.Err, r1.Text, r1.Finish)
	}
	streamtest.CheckCalls(t, r1.Calls, []streamtest.Call{{ID: "gemini-call-T1-0", Name: "read", Args: `{"path":"go.mod"}`}})
	msgs = append(msgs, streamtest.Assistant(r1), message.NewToolResult(r1.Calls[0].ToolCallID, "read", "module pincer", false))

	r2 := streamtest.Collect(p.Stream(t.Context(), provider.Request{Model: "gemini-test", Messages: msgs, Tools: tools}))
	if r2.Err != nil || r2.Text != "It declares module pincer." || len(r2.Calls) != 0 || r2.Usage.InputTokens != 70 {
		t.Fatalf("second: err %v text %q calls %v usage %+v", r2.Err, r2.Text, r2.Calls, r2.Usage)
	}
	want := streamtest.JSON(t, `[
		{"role": "user", "parts": [{"text": "What is in go.mod?"}]},
		{"role": "model", "parts": [
			{"text": "Let me read it."},
			{"functionCall": {"name": "read", "args": {"path": "go.mod"}}, "thoughtSignature": "SIG1"}
		]},
		{"role": "user", "parts": [{"functionResponse": {"name": "read", "response": {"output": "module pincer"}}}]}
	]`)
	if got := s.Requests()[1].Body["contents"]; !reflect.DeepEqual(got, want) {
		raw, _ := json.MarshalIndent(got, "", "  ")
		t.Fatalf("second request contents:\n%s", raw)
	}
}
