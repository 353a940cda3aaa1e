// Package mcp is pincer's Model Context Protocol client, on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk): the servers a session may use, as
// Claude Code configures them (.mcp.json, the user's config, --mcp-config,
// plugins), started in the background, their tools offered to the model as
// mcp__SERVER__TOOL through the same permission, hook and audit pipeline as the
// built-in tools.
package mcp

// Transport is how pincer reaches a server, as .mcp.json's "type".
type Transport string

// Transports (Claude Code's names). An entry with a command and no type is stdio.
const (
	TransportStdio Transport = "stdio"
	TransportHTTP  Transport = "http" // streamable HTTP (MCP 2025-03-26 and later)
	TransportSSE   Transport = "sse"  // the legacy HTTP+SSE transport (MCP 2024-11-05)
)

// Scope is where a server's configuration comes from. It decides trust: a
// ScopeProject server (the repository's .mcp.json) starts only after the person
// approved it for that project; the others are the person's own.
type Scope string

// Scopes.
const (
	ScopeUser    Scope = "user"    // [mcp.servers.NAME] in pincer's user config, or ~/.claude.json's mcpServers
	ScopeLocal   Scope = "local"   // ~/.claude.json's projects[PROJECT].mcpServers (Claude Code's local scope)
	ScopeProject Scope = "project" // the project's .mcp.json
	ScopeFlag    Scope = "flag"    // a --mcp-config FILE the person passed
	ScopePlugin  Scope = "plugin"  // an enabled plugin's mcpServers
)

// ServerConfig is one configured server, after ${VAR} and ${VAR:-default}
// expansion. Exactly one of Command (stdio) and URL (http, sse) is set.
type ServerConfig struct {
	Name      string
	Transport Transport
	Command   string
	Args      []string
	Env       map[string]string // added to the server's environment (stdio)
	URL       string
	Headers   map[string]string // sent with every request (http, sse)
	// Written is the entry as its file spells it, before expansion: what the
	// views show (CommandLine), never the values above.
	Written Written

	Scope Scope
	// File is the file the entry was read from ("" for none), Line the line of
	// its name there (0: unknown); Plugin names the plugin of a ScopePlugin
	// server.
	File   string
	Line   int
	Plugin string
	// Fingerprint is the hex SHA-256 of the entry as written, before ${VAR}
	// expansion (config.MCPServerEntry.Fingerprint): what a project server's
	// approval is bound to.
	Fingerprint string
	// Approved is false for a ScopeProject server the person has not approved
	// for this project (with this very command, args, env, URL and headers):
	// it is listed as StatusNeedsApproval and never started. Always true for
	// the other scopes.
	Approved bool
	// Disabled is set for a project server the person refused
	// (disabledMcpjsonServers in ~/.claude/settings.json): Approved is false, it
	// is listed as StatusDisabled and never started.
	Disabled bool
	// Broken is why a configured entry cannot start, as its views list it
	// ("not started: the environment variable MCP_TOKEN is not set ...
	// (FILE:LINE)"): an unset ${VAR}, a bad name, a wrong shape. Approved is
	// false then; such a server is listed as StatusFailed with Broken as the
	// reason and is never started (nor approved).
	Broken string
}

// Status is a server's state as the views show it.
type Status string

// Statuses.
const (
	StatusNeedsApproval Status = "needs approval" // a project server the person has not approved
	StatusConnecting    Status = "connecting"
	StatusReady         Status = "ready"
	StatusFailed        Status = "failed" // ServerState.Reason says why; a reconnect may follow
	StatusDisabled      Status = "disabled"
)

// ServerState is a server as the views and `pincer mcp list` show it.
type ServerState struct {
	Config ServerConfig
	Status Status
	// Reason is why it failed, or why it waits ("" when ready).
	Reason string
	// LastError is the reason of the server's last failure without the
	// "reconnecting in" part, kept while it reconnects (StatusConnecting) and
	// cleared once it is ready: a view tells a new failure from a retry failing
	// the same way by it.
	LastError string
	// Tools are the full names (mcp__SERVER__TOOL) it offers, once ready.
	Tools []string
	// Prompts and Resources are what it lists (names, URIs), once ready.
	Prompts   []PromptInfo
	Resources []ResourceInfo
	// Instructions are the server's initialize instructions (cut to 2 KB).
	Instructions string
}

// PromptInfo is one prompt a server offers (a slash command /mcp__SERVER__PROMPT).
type PromptInfo struct {
	Name, Description string
	Arguments         []PromptArgument
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Name, Description string
	Required          bool
}

// ResourceInfo is one resource a server lists.
type ResourceInfo struct {
	URI, Name, Description, MIMEType string
}
