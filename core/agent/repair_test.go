package agent

import (
	"reflect"
	"testing"

	"pincer/core/message"
)

func call(id string) message.Part {
	return message.Part{Type: message.PartToolCall, ToolCallID: id, ToolName: "Read", Input: `{}`}
}

func assistant(text string, calls ...message.Part) message.Message {
	m := message.Message{Role: message.RoleAssistant}
	if text != "" {
		m.Parts = append(m.Parts, message.Part{Type: message.PartText, Text: text})
	}
	m.Parts = append(m.Parts, calls...)
	return m
}

func result(id, text string) message.Message {
	return message.NewToolResult(id, "Read", text, false)
}

// shape renders a view as role:callID/text tokens for comparison.
func shape(msgs []message.Message) []string {
	var out []string
	for _, m := range msgs {
		switch m.Role {
		case message.RoleTool:
			r, _ := m.ToolResult()
			out = append(out, "tool:"+r.ToolCallID+"="+r.Text)
		default:
			s := string(m.Role) + ":" + m.Text()
			for _, c := range m.ToolCalls() {
				s += "+" + c.ToolCallID
			}
			out = append(out, s)
		}
	}
	return out
}

func TestRepairView(t *testing.T) {
	user := message.NewText(message.RoleUser, "hi")
	cases := []struct {
		name string
		in   []message.Message
		want []string
	}{
		{"complete pair kept", []message.Message{user, assistant("", call("a")), result("a", "ok")},
			[]string{"user:hi", "assistant:+a", "tool:a=ok"}},
		{"missing result filled", []message.Message{user, assistant("x", call("a"), call("b")), result("a", "ok")},
			[]string{"user:hi", "assistant:x+a+b", "tool:a=ok", "tool:b=" + InterruptedResult}},
		{"all missing, then user", []message.Message{user, assistant("", call("a"), call("b")), user},
			[]string{"user:hi", "assistant:+a+b", "tool:a=" + InterruptedResult, "tool:b=" + InterruptedResult, "user:hi"}},
		{"orphan dropped", []message.Message{user, result("z", "stray"), assistant("done")},
			[]string{"user:hi", "assistant:done"}},
		{"orphan inside segment dropped", []message.Message{user, assistant("", call("a")), result("z", "stray"), result("a", "ok")},
			[]string{"user:hi", "assistant:+a", "tool:a=ok"}},
		{"duplicate dropped", []message.Message{user, assistant("", call("a")), result("a", "first"), result("a", "second")},
			[]string{"user:hi", "assistant:+a", "tool:a=first"}},
		{"results reordered to call order", []message.Message{user, assistant("", call("a"), call("b")), result("b", "2"), result("a", "1")},
			[]string{"user:hi", "assistant:+a+b", "tool:a=1", "tool:b=2"}},
		{"empty interrupted assistant dropped", []message.Message{user, {Role: message.RoleAssistant, Interrupted: true}, user},
			[]string{"user:hi", "user:hi"}},
		{"late result after next user is orphan", []message.Message{user, assistant("", call("a")), user, result("a", "late")},
			[]string{"user:hi", "assistant:+a", "tool:a=" + InterruptedResult, "user:hi"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := shape(c.in)
			got := shape(RepairView(c.in))
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
			if !reflect.DeepEqual(shape(c.in), before) {
				t.Errorf("RepairView changed its input")
			}
		})
	}
}
