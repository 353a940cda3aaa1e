// Package mcpname is the one rule for what may name an MCP server, shared by
// the configuration readers (core/config) and the client (core/mcp), which may
// not import each other. It imports nothing of pincer's.
package mcpname

import (
	"errors"
	"fmt"
	"strings"
)

// MaxLen is the longest server name accepted, in bytes.
const MaxLen = 64

// Check says why name cannot name an MCP server, nil when it can: empty, a
// character outside [A-Za-z0-9_-] (Claude Code's `mcp add` rule), "__" inside
// it (mcp__a__b__c would then parse as two different server/tool pairs, and a
// rule for one server could match another's tools), a leading or trailing "_"
// (it would join the "__" separating server and tool), or longer than MaxLen.
func Check(name string) error {
	if name == "" {
		return errors.New("an MCP server needs a name")
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return fmt.Errorf("%q cannot name an MCP server: use letters, digits, '-' and '_'", name)
		}
	}
	switch {
	case strings.Contains(name, "__"):
		return fmt.Errorf("%q cannot name an MCP server: \"__\" separates server and tool in mcp__SERVER__TOOL", name)
	case strings.HasPrefix(name, "_") || strings.HasSuffix(name, "_"):
		return fmt.Errorf("%q cannot name an MCP server: a leading or trailing \"_\" would join the \"__\" separating server and tool", name)
	case len(name) > MaxLen:
		return fmt.Errorf("%q cannot name an MCP server: at most %d characters", name, MaxLen)
	}
	return nil
}
