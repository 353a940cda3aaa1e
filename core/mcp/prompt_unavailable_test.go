package mcp_test

import (
	"strings"
	"testing"

	"pincer/core/mcp"
)

// TestPromptUnavailable: what a prompt command typed before (or without) its
// server says instead of "unknown command".
func TestPromptUnavailable(t *testing.T) {
	st := func(name string, s mcp.Status, reason string, prompts ...string) mcp.ServerState {
		x := mcp.ServerState{Config: mcp.ServerConfig{Name: name}, Status: s, Reason: reason}
		for _, p := range prompts {
			x.Prompts = append(x.Prompts, mcp.PromptInfo{Name: p})
		}
		return x
	}
	states := []mcp.ServerState{
		st("mini", mcp.StatusNeedsApproval, ""), st("slow", mcp.StatusConnecting, ""),
		st("gone", mcp.StatusFailed, "timed out after 10s (MCP_TIMEOUT)"), st("ev", mcp.StatusReady, "", "greet", "simple prompt"),
		st("ev_x", mcp.StatusConnecting, ""), st("off", mcp.StatusDisabled, "disabled in your settings"),
	}
	for _, c := range []struct{ cmd, want string }{
		{"/mcp__mini__greet", "/mcp__mini__greet: MCP server mini (.mcp.json) is not approved for this project: `pincer mcp approve mini`"},
		{"/mcp__slow__p", "MCP server slow is still connecting"},
		{"mcp__gone__p", "/mcp__gone__p: MCP server gone failed: timed out after 10s (MCP_TIMEOUT)"},
		{"/mcp__ev_x__p", "MCP server ev_x is still connecting"},
		{"/mcp__ev__nope", "MCP server ev has no prompt nope (it has /mcp__ev__greet, /mcp__ev__simple_prompt)"},
		{"/mcp__off__p", "MCP server off is disabled: disabled in your settings"},
		{"/mcp__who__p", "/mcp__who__p: no MCP server who is configured here (pincer mcp list)"},
		{"/mcp__ev__greet", ""},
		{"/mcp__ev__simple_prompt", ""},
		{"/review", ""},
	} {
		why, ok := mcp.PromptUnavailable(states, c.cmd)
		if ok != (c.want != "") || !strings.Contains(why, c.want) {
			t.Errorf("%s: %q %v; want %q", c.cmd, why, ok, c.want)
		}
	}
}
