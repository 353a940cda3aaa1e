package mcp

import (
	"strings"
	"unicode/utf8"
)

// MaxInstructions is how many bytes of a server's initialize instructions
// reach the system prompt (Claude Code cuts them at 2 KB).
const MaxInstructions = 2048

// cutInstructions cuts s to MaxInstructions bytes at a rune boundary, marking the cut.
func cutInstructions(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= MaxInstructions {
		return s
	}
	const mark = "\n[... instructions cut at 2 KB]"
	cut := MaxInstructions - len(mark)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + mark
}

// Instructions is the MCP segment of the dynamic system prompt: the ready
// servers, each with its instructions (cut at 2 KB) when it gave any; "" when
// no server is ready. It is recomputed for each model call, so a server that
// connects later, or drops, shows in the next request without touching the
// cached static part.
func (m *Manager) Instructions() string {
	var b strings.Builder
	for _, st := range m.States() {
		if st.Status != StatusReady {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("# MCP servers\n\nThese MCP servers are connected; their tools are named mcp__SERVER__TOOL.")
		}
		b.WriteString("\n\n## " + st.Config.Name + "\n")
		if st.Instructions != "" {
			b.WriteString(st.Instructions)
		} else {
			b.WriteString("(no instructions)")
		}
	}
	return b.String()
}
