package app

import (
	"fmt"
	"os"
	"sort"

	"pincer/core/config"
	"pincer/core/mcp"
)

// The MCP servers of a run: core/config reads the entries (the user's
// [mcp.servers.NAME], the project's .mcp.json, each --mcp-config, ${VAR}
// expanded, one per name by Claude Code's precedence), and each becomes an
// mcp.ServerConfig with its scope and, for a project server, whether the person
// approved it (mcp_approval.go). Problems of .mcp.json and [mcp] are warnings
// (the server, or the file, starts nothing); those of a --mcp-config file are
// fatal, as every config file the person's own flags name.

// mcpScopes maps a config source to a server's scope.
var mcpScopes = map[config.Kind]mcp.Scope{
	config.UserConfig: mcp.ScopeUser,
	config.ProjectMCP: mcp.ScopeProject,
	config.MCPFlag:    mcp.ScopeFlag,
	// ~/.claude.json: its top-level servers are the user scope, its servers
	// of this project the local one (mcpScope).
	config.ClaudeState: mcp.ScopeUser,
}

// mcpScope is the scope of an entry from kind (local: ~/.claude.json's
// servers of this project).
func mcpScope(kind config.Kind, local bool) mcp.Scope {
	if kind == config.ClaudeState && local {
		return mcp.ScopeLocal
	}
	return mcpScopes[kind]
}

// mcpServersFrom builds the servers of src (its --mcp-config documents already
// added), every problem going to report.
func mcpServersFrom(src *config.Sources, report *configReport) []mcp.ServerConfig {
	entries, errs := src.MCPServers(os.LookupEnv)
	claude, cerrs := src.MCPJSONApprovals()
	report.add(errs, cerrs)
	var recorded map[string]string
	needRecord := false
	for _, e := range entries {
		needRecord = needRecord || e.Kind == config.ProjectMCP
	}
	if needRecord {
		rec, err := readMCPApprovals(src.Paths.MCPApprovals)
		if err != nil {
			report.warnings = append(report.warnings, "no project MCP server is approved: "+err.Error())
		}
		recorded = rec.approvedFingerprints(src.Workspace)
	}
	out := make([]mcp.ServerConfig, 0, len(entries))
	for _, e := range entries {
		s := serverConfig(e)
		s.Approved, s.Disabled = mcpApproval(s.Scope, s.Name, s.Fingerprint, recorded, claude)
		out = append(out, s)
	}
	for _, b := range src.BrokenMCPServers(os.LookupEnv) {
		out = append(out, brokenServer(b))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// brokenServer is the listing of an entry that cannot start: never approved,
// its Broken reason "not started: PROBLEM (FILE:LINE)".
func brokenServer(b config.MCPBrokenEntry) mcp.ServerConfig {
	where := b.Path
	if b.Line > 0 {
		where = fmt.Sprintf("%s:%d", b.Path, b.Line)
	}
	return mcp.ServerConfig{Name: b.Name, Scope: mcpScope(b.Kind, b.Local), File: b.Path, Line: b.Line,
		Broken: "not started: " + b.Problem + " (" + where + ")"}
}

// serverConfig is the mcp.ServerConfig of an entry (not yet approved).
func serverConfig(e config.MCPServerEntry) mcp.ServerConfig {
	return mcp.ServerConfig{
		Name: e.Name, Transport: mcp.Transport(e.Type), Command: e.Command, Args: e.Args, Env: e.Env,
		URL: e.URL, Headers: e.Headers, Scope: mcpScope(e.Kind, e.Local), File: e.Path, Line: e.Line,
		Fingerprint: e.Fingerprint, Written: mcp.Written(e.Written),
	}
}

// MCPServerCommand is what a server runs or reaches, as the views and an
// approval show it (mcp.ServerConfig.CommandLine).
func MCPServerCommand(s mcp.ServerConfig) string { return s.CommandLine() }

// mcpDocProblems are why MCP configuration files of src contribute nothing
// (a .mcp.json or --mcp-config file that cannot be read or parsed), one line
// each; src.Errors() holds them too, among every file's.
func mcpDocProblems(src *config.Sources) []string {
	var out []string
	for _, d := range src.Docs {
		if d.Err != nil && !d.Same && (d.Kind == config.ProjectMCP || d.Kind == config.MCPFlag) {
			out = append(out, d.Err.Error())
		}
	}
	return out
}
