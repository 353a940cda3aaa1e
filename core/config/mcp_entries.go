package config

import (
	"errors"
	"os"
	"strings"
)

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

// MCPBrokenEntry is a configured MCP server that cannot start — an unset
// ${VAR}, a bad name, a wrong shape — so `pincer mcp list`, `mcp get` and /mcp
// can list it as a row and not only as a warning: its name, where it is
// (Kind, Path, Line of its name) and Problem, the reason without the "MCP
// server NAME not started: " lead ("headers.Authorization: ${MCP_TOKEN}: the
// environment variable MCP_TOKEN is not set ...").
type MCPBrokenEntry struct {
	Name    string
	Kind    Kind
	Local   bool // ~/.claude.json's local scope (MCPServerEntry.Local)
	Path    string
	Line    int
	Problem string
}

// BrokenMCPServers returns the entries MCPServers leaves out for a problem of
// their own, in name order, one per name (the most specific source's), except
// names some source configures well (that entry runs: MCPServers). lookup is
// MCPServers'.
func (s *Sources) BrokenMCPServers(lookup func(string) (string, bool)) []MCPBrokenEntry {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	good := map[string]bool{}
	broken := map[string]MCPBrokenEntry{}
	rank := map[string]int{}
	for _, d := range s.docs(UserConfig, ProjectMCP, MCPFlag, ClaudeState) {
		for _, t := range d.mcpTables(s.Workspace) {
			table, base := t.table, t.base
			x := newExpander(lookup)
			r := mcpRank(d, t.local)
			for _, name := range sortedMapKeys(table) {
				e, errs := d.mcpEntry(base+"."+name, name, table[name], x)
				if e != nil {
					good[name] = true
					continue
				}
				if old, ok := rank[name]; ok && old > r {
					continue
				}
				b := MCPBrokenEntry{Name: name, Kind: d.Kind, Local: t.local, Path: d.Path}
				b.Line, _ = d.Line(base + "." + name)
				for _, err := range errs {
					var fe *FileError
					if errors.As(err, &fe) && fe.Err != nil && strings.Contains(fe.Err.Error(), " not started: ") {
						_, b.Problem, _ = strings.Cut(fe.Err.Error(), " not started: ")
						break
					}
				}
				if b.Problem == "" && len(errs) > 0 {
					b.Problem = errs[0].Error()
				}
				broken[name], rank[name] = b, r
			}
		}
	}
	var out []MCPBrokenEntry
	for _, n := range sortedKeys(broken) {
		if !good[n] {
			out = append(out, broken[n])
		}
	}
	return out
}
