package plugin

import (
	"fmt"
	"regexp"
	"strings"
)

// namePattern is a plugin's (and a plugin MCP server's) name: letters, digits,
// '-' and '_', starting with a letter or digit, at most 64 bytes.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// ValidName returns nil when name can name a plugin: a simple identifier, so it
// is one directory under Dir (no "/", no ".."), and the MCP tool names built
// from it (mcp__plugin_NAME_SERVER__TOOL) split back unambiguously (no "__",
// no trailing '_').
func ValidName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("the name is empty")
	case !namePattern.MatchString(name):
		return fmt.Errorf("%q is not a plugin name (letters, digits, '-' and '_', starting with a letter or digit, at most 64)", name)
	case strings.Contains(name, "__") || strings.HasSuffix(name, "_"):
		return fmt.Errorf("%q is not a plugin name (no \"__\", no trailing '_': MCP tool names are split at \"__\")", name)
	}
	return nil
}
