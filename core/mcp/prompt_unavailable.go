package mcp

import (
	"sort"
	"strings"
)

// PromptUnavailable says why the MCP prompt command ("/mcp__SERVER__PROMPT",
// the slash optional) cannot run now, from the servers' states: its server is
// still connecting, failed (and why), needs approval, is disabled, has no such
// prompt, or is not configured at all — what the workbench and `pincer run`
// say instead of "unknown command" (Claude Code lists a prompt only once its
// server is connected, so a prompt typed early would read as a typo). ok is
// false when command is no MCP prompt name, or the prompt is there.
func PromptUnavailable(states []ServerState, command string) (why string, ok bool) {
	name := strings.TrimPrefix(command, "/")
	if !strings.HasPrefix(name, "mcp__") {
		return "", false
	}
	var st *ServerState
	for i := range states {
		p := ToolPrefix(states[i].Config.Name)
		if strings.HasPrefix(name, p) && len(name) > len(p) && (st == nil || len(p) > len(ToolPrefix(st.Config.Name))) {
			st = &states[i]
		}
	}
	cmd := "/" + name
	if st == nil {
		server, _, _ := strings.Cut(strings.TrimPrefix(name, "mcp__"), "__")
		return cmd + ": no MCP server " + server + " is configured here (pincer mcp list)", true
	}
	s, prompt := st.Config.Name, name[len(ToolPrefix(st.Config.Name)):]
	switch st.Status {
	case StatusConnecting:
		return cmd + ": MCP server " + s + " is still connecting; its prompts are commands once it is ready (/mcp)", true
	case StatusFailed:
		return cmd + ": MCP server " + s + " failed: " + st.Reason, true
	case StatusNeedsApproval:
		return cmd + ": MCP server " + s + " (.mcp.json) is not approved for this project: `pincer mcp approve " + s + "`, or a in /mcp", true
	case StatusDisabled:
		return cmd + ": MCP server " + s + " is disabled: " + st.Reason, true
	}
	var names []string
	for _, p := range st.Prompts {
		if Sanitize(p.Name) == prompt {
			return "", false
		}
		names = append(names, "/"+ToolName(s, p.Name))
	}
	if len(names) == 0 {
		return cmd + ": MCP server " + s + " offers no prompts", true
	}
	sort.Strings(names)
	return cmd + ": MCP server " + s + " has no prompt " + prompt + " (it has " + strings.Join(names, ", ") + ")", true
}
