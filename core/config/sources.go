package config

import "path/filepath"

// Kind names one configuration source.
type Kind int

// The configuration sources, in merge order (a later source's rule is named after
// an earlier one's; deny beats ask beats allow whatever the order).
const (
	// UserConfig is Paths.UserConfig, the user's own config.toml: trusted.
	UserConfig Kind = iota
	// UserClaude is ~/.claude/settings.json, Claude Code's user settings: its hooks.
	UserClaude
	// ProjectConfig is <workspace>/.pincer/config.toml, checked in with the project.
	ProjectConfig
	// LocalSettings is <workspace>/.pincer/settings.local.toml, git-ignored, where
	// "always allow" answers land: permission rules.
	LocalSettings
	// ProjectClaude is <workspace>/.claude/settings.json, Claude Code's project
	// settings: permissions and hooks.
	ProjectClaude
	// LocalClaude is <workspace>/.claude/settings.local.json.
	LocalClaude
	// ProjectMCP is <workspace>/.mcp.json, Claude Code's project MCP servers
	// (mcp.go): each starts only once the person approved it, and a problem of
	// the file is a warning (none of its servers start; nothing else is lost).
	ProjectMCP
	// MCPFlag is a --mcp-config file (or inline JSON) the person passed
	// (Sources.MCPConfigArg): trusted, and its problems are fatal.
	MCPFlag
	// ClaudeState is ~/.claude.json, Claude Code's own state file, read only
	// for its MCP servers (claude_json.go): top-level "mcpServers" (Claude
	// Code's user scope) and "projects"[WORKSPACE]["mcpServers"] (its local
	// scope, what `claude mcp add` writes by default). The person's own file:
	// trusted as the user's config; its problems are warnings.
	ClaudeState
)

// Format is a source's syntax.
type Format int

// The source formats.
const (
	TOML Format = iota // pincer's config.toml shape
	JSON               // Claude Code's settings.json shape
)

// Source is one configuration file.
type Source struct {
	Kind   Kind
	Path   string
	Name   string // short name for rule sources and messages: "user config", ".pincer/config.toml", ...
	Format Format
	// Project marks a file that comes with the workspace (not trusted): it may
	// only tighten the sandbox, and its hooks run only once trusted.
	Project bool
}

// SourcesFor lists the sources of workspace ("" lists only the user's) under
// paths, in merge order. Files that do not exist are listed too.
func SourcesFor(paths Paths, workspace string) []Source {
	var out []Source
	if paths.UserConfig != "" {
		out = append(out, Source{UserConfig, paths.UserConfig, "user config", TOML, false})
	}
	if paths.Home != "" {
		out = append(out, Source{UserClaude, filepath.Join(paths.Home, ".claude", "settings.json"), "~/.claude/settings.json", JSON, false})
	}
	if workspace == "" {
		return withClaudeState(out, paths)
	}
	return withClaudeState(append(out,
		Source{ProjectConfig, ProjectPath(workspace), ".pincer/config.toml", TOML, true},
		Source{LocalSettings, LocalSettingsPath(workspace), ".pincer/settings.local.toml", TOML, true},
		Source{ProjectClaude, filepath.Join(workspace, ".claude", "settings.json"), ".claude/settings.json", JSON, true},
		Source{LocalClaude, filepath.Join(workspace, ".claude", "settings.local.json"), ".claude/settings.local.json", JSON, true},
		Source{ProjectMCP, MCPJSONPath(workspace), ".mcp.json", JSON, true},
	), paths)
}

// withClaudeState adds ~/.claude.json (ClaudeState) to out when there is a home.
func withClaudeState(out []Source, paths Paths) []Source {
	if paths.Home == "" {
		return out
	}
	return append(out, Source{ClaudeState, ClaudeStatePath(paths.Home), "~/.claude.json", JSON, false})
}

// LocalSettingsPath is <workspace>/.pincer/settings.local.toml.
func LocalSettingsPath(workspace string) string {
	return filepath.Join(workspace, ".pincer", "settings.local.toml")
}
