package learn

import (
	"encoding/json"
	"strings"

	"pincer/core/message"
)

// Step is one tool call of a turn and how it ended.
type Step struct {
	Tool string
	// Subject is the call's main argument as text: a Bash command, a file
	// path, a pattern ("" when it has none of the known keys).
	Subject string
	// OK is true when the call has a result that is no error.
	OK bool
	// Output is the head of its result's text (at most maxOutput bytes).
	Output string
}

// Trajectory is what a turn did: the person's request, its tool calls in
// order, and the model's final answer.
type Trajectory struct {
	Goal  string
	Steps []Step
	Final string
}

// maxOutput caps a step's kept output.
const maxOutput = 400

// subjectKeys are the input keys that name what a call acts on, in the order
// they are preferred.
var subjectKeys = []string{"command", "file_path", "notebook_path", "path", "pattern", "url", "query", "skill", "prompt"}

// Read builds the trajectory of a turn from its messages (the turn's user
// message, assistant replies, tool results): goal is the request as the
// person typed it ("" takes the turn's first user message).
func Read(goal string, msgs []message.Message, final string) Trajectory {
	tr := Trajectory{Goal: strings.TrimSpace(goal), Final: strings.TrimSpace(final)}
	results := map[string]message.Part{}
	for _, m := range msgs {
		if r, ok := m.ToolResult(); ok {
			results[r.ToolCallID] = r
		}
		if tr.Goal == "" && m.Role == message.RoleUser {
			tr.Goal = strings.TrimSpace(m.Text())
		}
	}
	for _, m := range msgs {
		if m.Role != message.RoleAssistant {
			continue
		}
		for _, c := range m.ToolCalls() {
			s := Step{Tool: c.ToolName, Subject: subject(c.Input)}
			if r, ok := results[c.ToolCallID]; ok {
				s.OK = !r.IsError
				s.Output = cut(r.Text, maxOutput)
			}
			tr.Steps = append(tr.Steps, s)
		}
	}
	return tr
}

// subject is the first known key of a call's JSON input, as one line.
func subject(input string) string {
	var m map[string]any
	if json.Unmarshal([]byte(input), &m) != nil {
		return ""
	}
	for _, k := range subjectKeys {
		if v, ok := m[k].(string); ok && strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// Succeeded are the steps that worked, in order.
func (tr Trajectory) Succeeded() []Step {
	var out []Step
	for _, s := range tr.Steps {
		if s.OK {
			out = append(out, s)
		}
	}
	return out
}

// Commands are the Bash commands that worked, each once, in order.
func (tr Trajectory) Commands() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range tr.Succeeded() {
		if s.Tool == "Bash" && s.Subject != "" && !seen[s.Subject] {
			seen[s.Subject] = true
			out = append(out, s.Subject)
		}
	}
	return out
}

// cut keeps the first n bytes of s (on a rune boundary), marking a cut.
func cut(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !isRuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
