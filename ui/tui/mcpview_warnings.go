package tui

import (
	"pincer/core/mcp"
	"pincer/ui/termtext"
)

// mcpWarner is a Backend that knows the MCP configuration's problems
// (app.Backend.MCPWarnings).
type mcpWarner interface{ MCPConfigWarnings() []string }

// mcpWarnings are the attached backend's MCP configuration problems (none
// before Attach). Event loop only.
func (w *Workbench) mcpWarnings() []string {
	if mw, ok := w.be.(mcpWarner); ok {
		return mw.MCPConfigWarnings()
	}
	return nil
}

// mcpViewRows are the /mcp view's rows: the configuration's problems first,
// each wrapped to width, then the servers (mcpRows). With problems and no
// server the view says none could be read, not that none is configured (a
// new user r21 saw "No MCP servers configured" for a .mcp.json that did not
// parse). Pure, for the tests.
func mcpViewRows(list []mcp.ServerState, warnings []string, sel int, confirm, approveKey string, width int) []mcpRow {
	if len(warnings) == 0 {
		return mcpRows(list, sel, confirm, approveKey, width)
	}
	rows := []mcpRow{{text: "The MCP configuration has problems (what they name starts nothing):", style: "warning", bold: true}}
	for _, warn := range warnings {
		for _, line := range wrapCells(termtext.Line(warn), max(10, width-2)) {
			rows = append(rows, mcpRow{text: "  " + line, style: "warning"})
		}
	}
	rows = append(rows, mcpRow{})
	if len(list) == 0 {
		return append(rows, mcpRow{text: "No MCP server could be read: fix the problems above (FILE:LINE), then restart pincer.", style: "muted"})
	}
	return append(rows, mcpRows(list, sel, confirm, approveKey, width)...)
}
