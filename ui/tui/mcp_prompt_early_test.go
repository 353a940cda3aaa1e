package tui

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/mcp"
)

// TestMCPPromptBeforeReady: /mcp__SERVER__PROMPT typed while its server is
// still connecting (or needs approval) says so, not "unknown command", and
// the line stays in the input box to be sent again.
func TestMCPPromptBeforeReady(t *testing.T) {
	b := startBench(t, 100, 24, Options{})
	b.w.pump.post(func() {
		b.w.mcpUpdate(mcp.ServerState{Config: mcp.ServerConfig{Name: "slow"}, Status: mcp.StatusConnecting})
		b.w.mcpUpdate(mcp.ServerState{Config: mcp.ServerConfig{Name: "mini", Scope: mcp.ScopeProject}, Status: mcp.StatusNeedsApproval})
	})
	b.typeText("/mcp__slow__greet Bob")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("MCP server slow is still connecting")
	b.waitInput("/mcp__slow__greet Bob")
	b.w.pump.post(func() { b.w.input.SetText("", false) })
	b.waitInput("")
	time.Sleep(5 * burstGap)
	b.typeText("/mcp__mini__greet")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("MCP server mini (.mcp.json) is not approved")
}
