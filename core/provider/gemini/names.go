package gemini

import (
	"fmt"
	"slices"

	"pincer/core/message"
	"pincer/core/provider"
)

// maxNameLen is the longest function name Gemini accepts.
const maxNameLen = 64

// validName reports whether Gemini accepts name as a function name: it starts with a
// letter or an underscore and holds only letters, digits, '_', '.', ':' and '-', at
// most 64 of them. Gemini rejects a declaration with any other name (HTTP 400), so a
// tool named "2fa_code" or "run tests" must travel under another name.
func validName(name string) bool {
	if name == "" || len(name) > maxNameLen {
		return false
	}
	for i, r := range name {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || r == '.' || r == ':' || r == '-'):
		default:
			return false
		}
	}
	return true
}

// toolNames maps the tool names of one request to the names Gemini sees and back.
// A valid name travels as is; an invalid one as its nearest valid form: a leading
// '_' when it starts with no letter or underscore, other characters replaced by '_',
// cut at 64, and "_2", "_3", ... appended when that collides with another name.
// The decoder maps the function calls Gemini sends back, so the agent only ever
// sees the real names; a name Gemini invents that maps to nothing stays as sent
// (the agent answers it as an unknown tool).
type toolNames struct {
	wire map[string]string // real -> wire (only names that differ)
	real map[string]string // wire -> real (only names that differ)
}

// newToolNames builds the mapping for the declared tools and every tool name of the
// transcript (a call of the history must be sent under the name its tool is
// declared with). The valid names are reserved first, the others mapped in sorted
// order, so the mapping is the same for the same names.
func newToolNames(tools []provider.ToolSpec, msgs []message.Message) toolNames {
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	for _, m := range msgs {
		for _, p := range m.Parts {
			if p.Type == message.PartToolCall || p.Type == message.PartToolResult {
				names = append(names, p.ToolName)
			}
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	tn := toolNames{wire: map[string]string{}, real: map[string]string{}}
	taken := map[string]bool{}
	for _, n := range names {
		if validName(n) {
			taken[n] = true
		}
	}
	for _, n := range names {
		if n == "" || validName(n) {
			continue
		}
		base := fixName(n)
		w := base
		for i := 2; taken[w]; i++ {
			suffix := fmt.Sprintf("_%d", i)
			w = base[:min(len(base), maxNameLen-len(suffix))] + suffix
		}
		taken[w] = true
		tn.wire[n], tn.real[w] = w, n
	}
	return tn
}

// fixName is the nearest valid form of name (before collisions are resolved).
func fixName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == ':' || c == '-') {
			b[i] = '_'
		}
	}
	if c := b[0]; !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		b = append([]byte{'_'}, b...)
	}
	return string(b[:min(len(b), maxNameLen)])
}

// toWire returns the name Gemini sees for the tool name.
func (tn toolNames) toWire(name string) string {
	if w, ok := tn.wire[name]; ok {
		return w
	}
	return name
}

// toReal returns the tool name a function call's name stands for.
func (tn toolNames) toReal(name string) string {
	if r, ok := tn.real[name]; ok {
		return r
	}
	return name
}
