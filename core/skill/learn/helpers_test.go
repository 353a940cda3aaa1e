package learn

import (
	"encoding/json"
	"fmt"

	"pincer/core/message"
)

// call is one scripted tool call and its result.
type call struct {
	tool, key, val string
	fail           bool
	out            string
}

// turnMessages builds a turn's messages: the request, one assistant reply
// per call with its tool result, then the final answer.
func turnMessages(request string, calls []call, final string) []message.Message {
	msgs := []message.Message{message.NewText(message.RoleUser, request)}
	for i, c := range calls {
		in, _ := json.Marshal(map[string]string{c.key: c.val})
		id := fmt.Sprintf("c%d", i)
		msgs = append(msgs, message.Message{Role: message.RoleAssistant, Parts: []message.Part{
			{Type: message.PartToolCall, ToolCallID: id, ToolName: c.tool, Input: string(in)}}})
		out := c.out
		if out == "" {
			out = "ok"
		}
		msgs = append(msgs, message.NewToolResult(id, c.tool, out, c.fail))
	}
	return append(msgs, message.NewText(message.RoleAssistant, final))
}

// workedCalls is a multi-step task that worked: a read, an edit, a test run.
var workedCalls = []call{
	{tool: "Read", key: "file_path", val: "lint.go"},
	{tool: "Edit", key: "file_path", val: "lint.go"},
	{tool: "Bash", key: "command", val: "go vet ./... && go test ./lint", out: "ok  lint 0.1s"},
}
