package config

// MCPEntriesIn reads the MCP server entries of table, the servers object at
// key base of d ("mcpServers"; "" for d's top level), with the rules of
// .mcp.json's entries (MCPServers) and ${VAR} expansion by lookup (nil: no
// variable is set): for the files that are not a workspace's sources, a
// plugin's .mcp.json and plugin.json's inline mcpServers (core/plugin, which
// passes ${CLAUDE_PLUGIN_ROOT} in lookup). Each entry's Kind is d's. An error
// whose entry was left out is fatal (Warning false): the reader of such a file
// fails closed; a Warning kept its entry (an unknown key, ignored).
func (d *Document) MCPEntriesIn(table map[string]any, base string, lookup func(string) (string, bool)) ([]MCPServerEntry, []error) {
	x := newExpander(lookup)
	var out []MCPServerEntry
	var errs []error
	for _, name := range sortedMapKeys(table) {
		key := name
		if base != "" {
			key = base + "." + name
		}
		e, eerrs := d.mcpEntry(key, name, table[name], x)
		if e == nil {
			for _, err := range eerrs {
				if fe, ok := err.(*FileError); ok {
					fe.Warning = false
				}
			}
		} else {
			out = append(out, *e)
		}
		errs = append(errs, eerrs...)
	}
	return out, errs
}
