package agent

import (
	"testing"

	"pincer/core/message"
)

func todoCall(id, input string) message.Message {
	return message.Message{Role: message.RoleAssistant, Parts: []message.Part{{
		Type: message.PartToolCall, ToolCallID: id, ToolName: "TodoWrite", Input: input}}}
}

func TestTodosOf(t *testing.T) {
	first := `{"todos":[{"content":"a","status":"in_progress","activeForm":"A"}]}`
	second := `{"todos":[{"content":"a","status":"completed","activeForm":"A"},{"content":"b","status":"pending","activeForm":"B"}]}`
	cases := []struct {
		name string
		msgs []message.Message
		want int // number of todos; -1 for none
		last string
	}{
		{"none", []message.Message{message.NewText(message.RoleUser, "hi")}, -1, ""},
		{"latest wins", []message.Message{
			todoCall("1", first), message.NewToolResult("1", "TodoWrite", "ok", false),
			todoCall("2", second), message.NewToolResult("2", "TodoWrite", "ok", false)}, 2, "b"},
		{"failed call ignored", []message.Message{
			todoCall("1", first), message.NewToolResult("1", "TodoWrite", "ok", false),
			todoCall("2", second), message.NewToolResult("2", "TodoWrite", "Tool failed: x", true)}, 1, "a"},
		{"unanswered call ignored", []message.Message{
			todoCall("1", first), message.NewToolResult("1", "TodoWrite", "ok", false),
			todoCall("2", second)}, 1, "a"},
	}
	for _, c := range cases {
		got := TodosOf(c.msgs)
		if c.want == -1 {
			if got != nil {
				t.Errorf("%s: %v, want none", c.name, got)
			}
			continue
		}
		if len(got) != c.want || got[len(got)-1].Content != c.last {
			t.Errorf("%s: %+v", c.name, got)
		}
	}
}

func TestRenderTodoInput(t *testing.T) {
	text, ok := RenderTodoInput(`{"todos":[{"content":"a","status":"completed","activeForm":"A"},{"content":"b","status":"in_progress","activeForm":"Doing b"},{"content":"c","status":"pending","activeForm":"C"}]}`)
	if !ok || text != "[x] a\n[>] b (Doing b)\n[ ] c\n" {
		t.Errorf("got %q %v", text, ok)
	}
	for _, bad := range []string{"", "{}", `{"todos":3}`} {
		if _, ok := RenderTodoInput(bad); ok {
			t.Errorf("%q: ok", bad)
		}
	}
}
