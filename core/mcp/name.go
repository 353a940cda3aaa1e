package mcp

import (
	"errors"
	"fmt"
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

// CheckServerName says why name cannot name a server: empty, a character
// outside [A-Za-z0-9_-], or "__" inside it (mcp__a__b__c would then parse
// as two different server/tool pairs, and a rule for one server could match
// another's tools). A leading or trailing "_" is refused for the same reason.
// nil means the name is fine. Configuration readers report it with FILE:LINE.
func CheckServerName(name string) error {
	switch {
	case name == "":
		return errors.New("an MCP server needs a name")
	case strings.Contains(name, "__"):
		return fmt.Errorf("MCP server name %q contains \"__\", which separates server and tool in mcp__SERVER__TOOL", name)
	case strings.HasPrefix(name, "_") || strings.HasSuffix(name, "_"):
		return fmt.Errorf("MCP server name %q starts or ends with \"_\", which would join the \"__\" separating server and tool", name)
	}
	for _, r := range name {
		if !nameRune(r) {
			return fmt.Errorf("MCP server name %q has %q: only letters, digits, \"_\" and \"-\" are allowed", name, r)
		}
	}
	return nil
}
