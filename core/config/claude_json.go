package config

import "path/filepath"

// Claude Code keeps the MCP servers `claude mcp add` writes in its own state
// file, ~/.claude.json: the top-level "mcpServers" (its user scope) and
// "projects"[ABSOLUTE_PROJECT_DIR]["mcpServers"] (its local scope, the
// default of `claude mcp add`). pincer reads both, for the workspace it runs
// in, with the entry rules of .mcp.json; the rest of the file (Claude Code's
// history, settings, caches) is not looked at, and pincer never writes it.

// ClaudeStatePath is ~/.claude.json under home.
func ClaudeStatePath(home string) string { return filepath.Join(home, ".claude.json") }

// mcpTable is one object of MCP server entries in a document: table at key
// base, local for ~/.claude.json's per-project servers, errs the problems of
// finding it.
type mcpTable struct {
	table map[string]any
	base  string
	local bool
	errs  []error
}

// mcpTables are d's tables of servers: the one of a .mcp.json, a
// --mcp-config or config.toml (mcpServersTable), or the two of ~/.claude.json
// for workspace (its projects entry of another directory is not read).
func (d *Document) mcpTables(workspace string) []mcpTable {
	if d.Kind != ClaudeState {
		table, base, errs := d.mcpServersTable()
		return []mcpTable{{table: table, base: base, errs: errs}}
	}
	var out []mcpTable
	if t, errs := d.claudeObject(d.Tree, "mcpServers"); t != nil || errs != nil {
		out = append(out, mcpTable{table: t, base: "mcpServers", errs: errs})
	}
	if workspace == "" {
		return out
	}
	projects, _ := d.Tree["projects"].(map[string]any)
	proj, _ := projects[workspace].(map[string]any)
	if proj == nil {
		return out
	}
	key := "projects." + workspace + ".mcpServers"
	if t, errs := d.claudeObject(proj, key); t != nil || errs != nil {
		out = append(out, mcpTable{table: t, base: key, local: true, errs: errs})
	}
	return out
}

// claudeObject is the "mcpServers" object of m (key: its dotted path, for
// positions), nil when absent, a warning when it is no object.
func (d *Document) claudeObject(m map[string]any, key string) (map[string]any, []error) {
	raw, ok := m["mcpServers"]
	if !ok {
		return nil, nil
	}
	t, ok := raw.(map[string]any)
	if !ok {
		return nil, []error{d.errorAt(key, true, "%s must be an object, not %s; none of its MCP servers start", key, kindOf(raw))}
	}
	return t, nil
}
