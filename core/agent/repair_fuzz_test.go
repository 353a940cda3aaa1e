package agent

import (
	"testing"

	"pincer/core/message"
)

// FuzzRepairView builds transcripts from a byte script (each byte one message:
// user, assistant text, assistant with 1-3 calls, a result for some id, an empty
// interrupted assistant) and checks the repaired view's invariant: every tool call
// has exactly one result, right after its assistant message, and no result is an
// orphan.
func FuzzRepairView(f *testing.F) {
	for _, seed := range []string{"", "\x00\x01", "\x02\x03\x03", "\x02\x03\x00\x03\x04", "\x03\x03\x02\x02\x05\x03"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, script []byte) {
		var msgs []message.Message
		next := 0
		for i, b := range script {
			switch b % 6 {
			case 0:
				msgs = append(msgs, message.NewText(message.RoleUser, "u"))
			case 1:
				msgs = append(msgs, assistant("a"))
			case 2:
				n := int(b/6)%3 + 1
				m := assistant("")
				for j := 0; j < n; j++ {
					m.Parts = append(m.Parts, call(string(rune('a'+next%26))))
					next++
				}
				msgs = append(msgs, m)
			case 3, 4:
				msgs = append(msgs, result(string(rune('a'+(int(b)+i)%26)), "r"))
			case 5:
				msgs = append(msgs, message.Message{Role: message.RoleAssistant, Interrupted: true})
			}
		}
		view := RepairView(msgs)
		for i := 0; i < len(view); i++ {
			m := view[i]
			if m.Role == message.RoleTool {
				t.Fatalf("orphan or misplaced result at %d: %q", i, shape(view))
			}
			calls := m.ToolCalls()
			if m.Role == message.RoleAssistant && len(calls) == 0 && m.Text() == "" {
				t.Fatalf("empty assistant message kept at %d", i)
			}
			for j, c := range calls {
				if i+1+j >= len(view) {
					t.Fatalf("call %s has no result: %q", c.ToolCallID, shape(view))
				}
				r, ok := view[i+1+j].ToolResult()
				if !ok || r.ToolCallID != c.ToolCallID {
					t.Fatalf("call %s answered by %+v: %q", c.ToolCallID, r, shape(view))
				}
			}
			i += len(calls)
		}
	})
}
