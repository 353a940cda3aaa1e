package responses

import (
	"encoding/json"
	"reflect"
	"testing"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/streamtest"
)

// TestScriptedTurn runs a whole tool loop against a scripted server: text and a
// function call, the output sent back by call_id, then the answer.
func TestScriptedTurn(t *testing.T) {
	first := events(
		`{"type":"response.created","response":{"id":"resp_1","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","content":[]}}`,
		`{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"delta":"Let me read it."}`,
		`{"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","id":"fc_9","call_id":"call_9","name":"read","arguments":""}}`,
		`{"type":"response.function_call_arguments.delta","item_id":"fc_9","output_index":1,"delta":"{\"path\":"}`,
		`{"type":"response.function_call_arguments.delta","item_id":"fc_9","output_index":1,"delta":"\"go.mod\"}"}`,
		`{"type":"response.function_call_arguments.done","item_id":"fc_9","output_index":1,"arguments":"{\"path\":\"go.mod\"}"}`,
		`{"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","id":"fc_9","call_id":"call_9","name":"read","arguments":"{\"path\":\"go.mod\"}","status":"completed"}}`,
		`{"type":"response.completed","response":{"id":"resp_1","status":"completed","usage":{"input_tokens":40,"output_tokens":12}}}`)
	second := events(
		`{"type":"response.output_text.delta","item_id":"msg_2","output_index":0,"delta":"It declares module pincer."}`,
		`{"type":"response.completed","response":{"id":"resp_2","status":"completed","usage":{"input_tokens":60,"output_tokens":7}}}`)
	s := streamtest.NewScript(t, streamtest.Stream(first), streamtest.Stream(second))
	p := testProvider(s.URL)
	tools := []provider.ToolSpec{{Name: "read", Description: "Read a file", Schema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}}
	msgs := []message.Message{message.NewText(message.RoleSystem, "You are pincer."), message.NewText(message.RoleUser, "What is in go.mod?")}

	r1 := streamtest.Collect(p.Stream(t.Context(), provider.Request{Model: "gpt-test", Messages: msgs, Tools: tools}))
	if r1.Err != nil || r1.Text != "Let me read it." || r1.Finish != "completed" {
		t.Fatalf("first: err %v text %q finish %q", r1.Err, r1.Text, r1.Finish)
	}
	streamtest.CheckCalls(t, r1.Calls, []streamtest.Call{{ID: "call_9", Name: "read", Args: `{"path":"go.mod"}`}})
	msgs = append(msgs, streamtest.Assistant(r1), message.NewToolResult("call_9", "read", "module pincer", false))

	r2 := streamtest.Collect(p.Stream(t.Context(), provider.Request{Model: "gpt-test", Messages: msgs, Tools: tools}))
	if r2.Err != nil || r2.Text != "It declares module pincer." || len(r2.Calls) != 0 || r2.Usage.InputTokens != 60 {
		t.Fatalf("second: err %v text %q usage %+v", r2.Err, r2.Text, r2.Usage)
	}
	want := streamtest.JSON(t, `[
		{"type": "message", "role": "user", "content": "What is in go.mod?"},
		{"type": "message", "role": "assistant", "content": "Let me read it."},
		{"type": "function_call", "call_id": "call_9", "name": "read", "arguments": "{\"path\":\"go.mod\"}"},
		{"type": "function_call_output", "call_id": "call_9", "output": "module pincer"}
	]`)
	body := s.Requests()[1].Body
	if !reflect.DeepEqual(body["input"], want) || body["instructions"] != "You are pincer." {
		raw, _ := json.MarshalIndent(body, "", "  ")
		t.Fatalf("second request:\n%s", raw)
	}
}
