package tui

import (
	"strings"
	"testing"
)

// TestMCPViewRowsWarnings: with the configuration's problems the view lists
// them first, wrapped; with no server it says none could be read, never "No
// MCP servers configured"; without problems it is mcpRows' alone.
func TestMCPViewRowsWarnings(t *testing.T) {
	join := func(rows []mcpRow) string {
		var b strings.Builder
		for _, r := range rows {
			b.WriteString(r.text + "\n")
		}
		return b.String()
	}
	warn := "/ws/.mcp.json:3:1: invalid character '}' looking for beginning of value, and more words to wrap the line"
	none := join(mcpViewRows(nil, []string{warn}, 0, "", "a", 40))
	if strings.Contains(none, "No MCP servers configured") || !strings.Contains(none, "No MCP server could be read") ||
		!strings.Contains(none, "/ws/.mcp.json:3:1:") || !strings.Contains(none, "problems") {
		t.Errorf("broken file, no server:\n%s", none)
	}
	for _, line := range strings.Split(none, "\n") {
		if textWidth(line) > 40 && strings.Contains(line, "wrap") {
			t.Errorf("a warning line is not wrapped to 40: %q", line)
		}
	}
	some := join(mcpViewRows(goldenMCPStates("/ws"), []string{warn}, 0, "", "a", 100))
	if !strings.Contains(some, "/ws/.mcp.json:3:1:") || !strings.Contains(some, "▸ everything") || strings.Contains(some, "could be read") {
		t.Errorf("broken entry beside servers:\n%s", some)
	}
	if plain := join(mcpViewRows(nil, nil, 0, "", "a", 100)); plain != join(mcpRows(nil, 0, "", "a", 100)) {
		t.Errorf("no problems:\n%s", plain)
	}
}
