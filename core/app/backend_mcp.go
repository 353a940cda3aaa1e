package app

import "pincer/core/mcp"

// MCPServers is every configured MCP server's state (status, reason, tools,
// prompts, resources), sorted by name; nil without MCP.
func (b *Backend) MCPServers() []mcp.ServerState {
	if b.MCP == nil {
		return nil
	}
	return b.MCP.States()
}

// SubscribeMCP calls fn with a server's new state after each change, from a
// background goroutine (the workbench posts it to its pump's inbox); cancel
// stops the calls. Without MCP it never calls fn.
func (b *Backend) SubscribeMCP(fn func(mcp.ServerState)) (cancel func()) {
	if b.MCP == nil {
		return func() {}
	}
	return b.MCP.Subscribe(fn)
}

// SetMCPServer adds or replaces one server's configuration and (re)starts it
// when it is Approved — how an approval recorded in /mcp takes effect at once.
func (b *Backend) SetMCPServer(cfg mcp.ServerConfig) {
	if b.MCP != nil {
		b.MCP.Set(cfg)
	}
}

// MCPConfigWarnings are the MCP configuration's problems (MCPWarnings), for
// the workbench's /mcp view, and a line when the project's .mcp.json was
// created, changed or removed since start (mcpFileNote).
func (b *Backend) MCPConfigWarnings() []string {
	if note := mcpFileNote(b.Repo, b.mcpFileAtStart); b.Repo != "" && note != "" {
		return append(append([]string(nil), b.MCPWarnings...), note)
	}
	return b.MCPWarnings
}
