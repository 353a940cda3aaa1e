package mcp

import (
	"pincer/core/mcp/mcpname"
	"strings"
)

// toolPrefix starts every MCP tool name (Claude Code's mcp__SERVER__TOOL).
const toolPrefix = "mcp__"

// ToolName is the name the model calls a server's tool by:
// "mcp__" + Sanitize(server) + "__" + Sanitize(tool), as Claude Code names them.
// Permission rules (mcp__SERVER, mcp__SERVER__TOOL) and hook matchers see it.
func ToolName(server, tool string) string {
	return toolPrefix + Sanitize(server) + "__" + Sanitize(tool)
}

// ToolPrefix is the prefix of every tool name of server: "mcp__SERVER__".
func ToolPrefix(server string) string { return toolPrefix + Sanitize(server) + "__" }

// Sanitize returns s with every rune outside [A-Za-z0-9_-] replaced by "_"
// (one "_" per rune), so a name the server sends never carries spaces,
// dots, look-alike letters or control characters into a tool name.
func Sanitize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if nameRune(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

func nameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-'
}

// CheckServerName says why name cannot name a server (mcpname.Check, the one
// rule shared with the configuration readers); nil means the name is fine.
func CheckServerName(name string) error { return mcpname.Check(name) }
