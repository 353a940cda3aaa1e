package app

import (
	"context"
	"os"
	"strconv"
	"time"

	"pincer/core/mcp"
	"pincer/core/prompt"
	"pincer/tools"
)

// DefaultMCPTimeout is how long `pincer run` waits for its MCP servers before
// the first model call when MCP_TIMEOUT (milliseconds, Claude Code's variable)
// is not set.
const DefaultMCPTimeout = 10 * time.Second

// newMCP is the Manager of a Run's MCP servers: their tools go into the
// Setup's registry, stdio servers run in the workspace root with the
// sandbox's environment allowlist plus their entry's env, and log their
// stderr to DATA/mcp-logs/SERVER.log.
func (s *Setup) newMCP() *mcp.Manager {
	o := mcpOptions(s.Workspace.Root(), "pincer")
	o.Registry = s.Tools
	// An attempt that gets no answer in MCP_TIMEOUT fails (and is retried), so
	// /mcp says "timed out" rather than "connecting" for ever.
	o.ConnectTimeout, o.TimeoutHint = mcpTimeout(os.Getenv("MCP_TIMEOUT")), "MCP_TIMEOUT"
	if ms, err := strconv.Atoi(os.Getenv("MCP_TOOL_TIMEOUT")); err == nil && ms > 0 {
		o.CallTimeout = time.Duration(ms) * time.Millisecond // Claude Code's variable, in milliseconds
	}
	return mcp.NewManager(o)
}

// startMCP starts the configured servers in the background. With a
// configuration that failed to parse (Options.FailClosed) none starts: every
// tool call is denied then anyway, and a server is a command the broken files
// might have meant otherwise.
func (r *Run) startMCP(ctx context.Context) {
	if r.MCP == nil || len(r.ConfigErrors) > 0 {
		return
	}
	r.MCP.Start(ctx, r.MCPServers)
}

// WaitMCP waits until every started MCP server is ready or has failed once,
// at most MCP_TIMEOUT milliseconds (default DefaultMCPTimeout), as `pincer run`
// does before its first model call (Claude Code waits so too); the workbench
// never waits. It reports whether all settled in time.
func (r *Run) WaitMCP(ctx context.Context) bool {
	if r.MCP == nil {
		return true
	}
	return r.MCP.WaitReady(ctx, mcpTimeout(os.Getenv("MCP_TIMEOUT")))
}

// MCPWarnings are one line for each started MCP server that is not ready
// (after WaitMCP: it failed, or is still connecting), for `pincer run` to
// print on stderr; servers waiting for approval are listed too, with what
// would approve them.
func (r *Run) MCPWarnings() []string {
	if r.MCP == nil {
		return nil
	}
	var out []string
	for _, st := range r.MCP.States() {
		switch st.Status {
		case mcp.StatusFailed:
			out = append(out, "MCP server "+st.Config.Name+" failed: "+st.Config.Redact(st.Reason))
		case mcp.StatusConnecting:
			out = append(out, "MCP server "+st.Config.Name+" is still connecting (MCP_TIMEOUT): its tools join when it is ready")
		case mcp.StatusNeedsApproval:
			out = append(out, "MCP server "+st.Config.Name+" (.mcp.json) is not approved for this project: `pincer mcp approve "+st.Config.Name+"` lets it start")
		}
	}
	return out
}

// MCPTimeout is MCP_TIMEOUT (milliseconds, Claude Code's variable) as a
// duration, DefaultMCPTimeout when unset or invalid: the default of `pincer mcp
// list --timeout`.
func MCPTimeout() time.Duration { return mcpTimeout(os.Getenv("MCP_TIMEOUT")) }

// mcpTimeout parses MCP_TIMEOUT (milliseconds); empty or invalid: the default.
func mcpTimeout(v string) time.Duration {
	if ms, err := strconv.Atoi(v); err == nil && ms > 0 {
		return time.Duration(ms) * time.Millisecond
	}
	return DefaultMCPTimeout
}

// mcpSegments is the MCP block of the dynamic prompt: the ready servers and
// their instructions, recomputed for each model call.
func mcpSegments(m *mcp.Manager) []prompt.Segment {
	if m == nil {
		return nil
	}
	if text := m.Instructions(); text != "" {
		return []prompt.Segment{{Name: "mcp", Text: text}}
	}
	return nil
}

// builtinToolNames are the names of the registry's built-in tools (no
// Origin): the static prompt segment is built from them only, so MCP tools
// arriving or leaving never change the cached part of the prompt.
func builtinToolNames(registry *tools.Registry) []string {
	var names []string
	for _, n := range registry.Names() {
		if t, ok := registry.Get(n); ok && t.Spec().Origin == "" {
			names = append(names, n)
		}
	}
	return names
}
