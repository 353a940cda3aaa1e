package anthropic

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/streamtest"
)

// TestScriptedTurn runs a whole tool loop against a scripted server: the model
// thinks, says something and calls a tool; the tool result goes back with the signed
// thinking block unchanged; the model answers.
func TestScriptedTurn(t *testing.T) {
	first := sse(
		"message_start", msgStart,
		"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`,
		"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Need the file."}}`,
		"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"SIG=="}}`,
		"content_block_stop", blockStop("0"),
		"content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`,
		"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Reading it."}}`,
		"content_block_stop", blockStop("1"),
		"content_block_start", toolStart("2", "toolu_1", "read"),
		"content_block_delta", argsDelta("2", ""),
		"content_block_delta", argsDelta("2", `{\"path\":`),
		"content_block_delta", argsDelta("2", ` \"go.mod\"}`),
		"content_block_stop", blockStop("2"),
		"message_delta", stopWith("tool_use"),
		"message_stop", msgStop)
	second := sse(
		"message_start", msgStart,
		"content_block_start", textStart,
		"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"It declares module pincer."}}`,
		"content_block_stop", blockStop0,
		"message_delta", endTurn, "message_stop", msgStop)
	s := streamtest.NewScript(t, streamtest.Stream(first), streamtest.Stream(second))
	p := testProvider(s.URL)

	msgs := []message.Message{
		message.NewText(message.RoleSystem, "You are pincer."),
		message.NewText(message.RoleUser, "What is in go.mod?"),
	}
	tools := []provider.ToolSpec{{Name: "read", Description: "Read a file",
		Schema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)}}

	r1 := streamtest.Collect(p.Stream(context.Background(), provider.Request{Model: "claude-test", Messages: msgs, Tools: tools}))
	if r1.Err != nil || r1.Finish != "tool_use" || r1.Text != "Reading it." {
		t.Fatalf("first call: err %v finish %q text %q", r1.Err, r1.Finish, r1.Text)
	}
	streamtest.CheckCalls(t, r1.Calls, []streamtest.Call{{ID: "toolu_1", Name: "read", Args: `{"path": "go.mod"}`}})
	msgs = append(msgs, streamtest.Assistant(r1), message.NewToolResult("toolu_1", "read", "module pincer", false))

	r2 := streamtest.Collect(p.Stream(context.Background(), provider.Request{Model: "claude-test", Messages: msgs, Tools: tools}))
	if r2.Err != nil || r2.Finish != "end_turn" || r2.Text != "It declares module pincer." || len(r2.Calls) != 0 {
		t.Fatalf("second call: err %v finish %q text %q", r2.Err, r2.Finish, r2.Text)
	}

	reqs := s.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	want := streamtest.JSON(t, `[
		{"role": "user", "content": [{"type": "text", "text": "What is in go.mod?"}]},
		{"role": "assistant", "content": [
			{"type": "thinking", "thinking": "Need the file.", "signature": "SIG=="},
			{"type": "text", "text": "Reading it."},
			{"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "go.mod"}}
		]},
		{"role": "user", "content": [
			{"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "text", "text": "module pincer"}],
			 "cache_control": {"type": "ephemeral"}}
		]}
	]`)
	if got := reqs[1].Body["messages"]; !reflect.DeepEqual(got, want) {
		raw, _ := json.MarshalIndent(got, "", "  ")
		t.Fatalf("second request messages:\n%s", raw)
	}
}
