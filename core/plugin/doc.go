// Package plugin reads, installs and enables pincer's plugins, in Claude
// Code's layout so its plugins work unchanged.
//
// A plugin is a directory with a manifest, .claude-plugin/plugin.json
// (Claude Code's place) or plugin.json at its root, naming the plugin and
// optionally the paths of its components. Its contributions, each namespaced
// by the plugin's name and marked with the origin "plugin:NAME":
//
//	skills/NAME/SKILL.md   skills, run as /PLUGIN:NAME          ("skills" adds paths)
//	commands/*.md          custom commands, /PLUGIN:NAME        ("commands")
//	agents/*.md            subagents: recorded and listed       ("agents")
//	hooks/hooks.json       hooks, Claude Code's JSON shape      ("hooks": paths or inline)
//	.mcp.json              MCP servers, named plugin_PLUGIN_SERVER ("mcpServers": paths or inline)
//	.lsp.json              LSP servers: recorded and listed     ("lspServers": paths or inline)
//
// As in Claude Code, the manifest's paths add to the default locations; they
// never replace them. Every path is relative to the plugin's root and must
// stay inside it (no "..", no absolute path, no symbolic link leading out).
// ${CLAUDE_PLUGIN_ROOT} (and its alias ${PINCER_PLUGIN_ROOT}) in hook
// commands and MCP and LSP server entries is replaced by the root.
//
// Fail closed: a plugin whose manifest or any component file does not parse
// contributes nothing; Plugin.Errors says why (FILE:LINE) and `pincer plugin
// list` shows it.
//
// Trust: installed plugins live in pincer's data directory (Dir), which
// sandboxed commands cannot see; whether one is enabled, for the user or for
// one project, is recorded there too (state.go) — never in a repository's
// files, so a repository cannot enable a plugin by itself. A plugin's hooks and
// servers are trusted because the person installed and enabled it.
package plugin
