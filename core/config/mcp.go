package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"pincer/core/mcp/mcpname"
	"regexp"
	"slices"
	"strings"
)

// MCP server entries, in Claude Code's shape so existing files work unchanged:
//
//	.mcp.json, --mcp-config FILE   {"mcpServers": {NAME: {"command": "npx", "args": [...], "env": {...}}
//	                                              | {"type": "http"|"sse", "url": "...", "headers": {...}}}}
//	config.toml (the user's)       [mcp.servers.NAME]  command, args, env — or type, url, headers
//
// "type" may also be "stdio" (the default of an entry with a command). ${VAR}
// and ${VAR:-default} are expanded in command, args, env values, url and header
// values (see expander). When one name is configured in more than one place the
// most specific wins, as Claude Code's local > project > user: a --mcp-config
// file (the last given first) over the project's .mcp.json over the user's
// config.toml.
//
// Trust: the user's config.toml and a --mcp-config file are the person's own; a
// project's .mcp.json comes with the repository and its servers start only once
// approved (core/app keeps the approvals). A project's .pincer/config.toml
// cannot configure servers ([mcp] there is a warning, not applied). Problems are
// *FileError at FILE:LINE; those of .mcp.json and of [mcp] are warnings — the
// entry, or the whole file when it does not parse, contributes no server and
// nothing else is lost — those of a --mcp-config the person passed are fatal.

// MCPServerEntry is one configured MCP server, its strings expanded.
type MCPServerEntry struct {
	Name    string
	Type    string // "stdio", "http" or "sse"
	Command string
	Args    []string
	Env     map[string]string
	URL     string
	Headers map[string]string
	Kind    Kind // UserConfig, ProjectMCP, MCPFlag or ClaudeState
	// Local marks an entry of ~/.claude.json's projects[WORKSPACE].mcpServers
	// (Claude Code's local scope); false for its top-level mcpServers (user).
	Local bool
	Path  string // the file ("--mcp-config" for inline JSON)
	Line  int    // the line of the entry's name
	// Fingerprint is the hex SHA-256 of the entry as written (type, command,
	// args, env, url, headers before expansion): a project server's approval is
	// bound to it, so a changed entry needs approving again.
	Fingerprint string
	// Written is the entry before expansion, what a view shows (mcp.Written
	// converts from it).
	Written MCPWritten
}

// MCPWritten is an entry's strings as its file writes them, ${VAR}
// references unexpanded.
type MCPWritten struct {
	Command string
	Args    []string
	Env     map[string]string
	URL     string
	Headers map[string]string
}

// MCPTypes are the transports an entry's "type" may name.
var MCPTypes = []string{"stdio", "http", "sse"}

// envNameRE is what an entry's env name may be: a portable variable name
// (POSIX: letters, digits and _, not starting with a digit).
var envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// mcpEntryKeys are the keys an entry may hold.
var mcpEntryKeys = []string{"type", "command", "args", "env", "url", "headers"}

// ValidMCPName returns why name cannot name an MCP server, nil when it can
// (mcpname.Check, the one rule; checked here so the entry's FILE:LINE says so).
func ValidMCPName(name string) error { return mcpname.Check(name) }

// MCPServers returns the MCP servers of the sources — one per name, the most
// specific source winning (see above) — in name order, with every problem.
// lookup reads the environment for ${VAR} (nil: os.LookupEnv).
func (s *Sources) MCPServers(lookup func(string) (string, bool)) ([]MCPServerEntry, []error) {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	errs := s.projectMCPTable()
	byName := map[string]MCPServerEntry{}
	rank := map[string]int{}
	for _, d := range s.docs(UserConfig, ProjectMCP, MCPFlag, ClaudeState) {
		for _, t := range d.mcpTables(s.Workspace) {
			entries, derrs := d.mcpEntriesOf(t, newExpander(lookup))
			errs = append(errs, derrs...)
			r := mcpRank(d, t.local)
			for _, e := range entries {
				if old, ok := rank[e.Name]; ok && old > r {
					continue
				}
				byName[e.Name], rank[e.Name] = e, r
			}
		}
	}
	out := make([]MCPServerEntry, 0, len(byName))
	for _, n := range sortedKeys(byName) {
		out = append(out, byName[n])
	}
	return out, errs
}

// mcpRank orders the sources of a server name as Claude Code's local >
// project > user: ~/.claude.json's user servers < the user's config.toml <
// the project's .mcp.json < ~/.claude.json's servers of this project (local)
// < each --mcp-config, a later flag over an earlier one (docs keep the flag
// order).
func mcpRank(d *Document, local bool) int {
	switch d.Kind {
	case ClaudeState:
		if local {
			return 3
		}
		return 0
	case UserConfig:
		return 1
	case ProjectMCP:
		return 2
	}
	return 4 + d.order
}

// projectMCPTable warns of an [mcp] table in a project's .pincer/config.toml:
// servers come from .mcp.json, which pincer asks the person to approve; a
// config.toml table would start them unasked.
func (s *Sources) projectMCPTable() []error {
	var errs []error
	for _, d := range s.docs(ProjectConfig) {
		if _, ok := d.Tree["mcp"]; ok {
			errs = append(errs, d.errorAt("mcp", true,
				"[mcp] in a project file is not applied: a project's MCP servers go in .mcp.json, where each is approved before it starts; put your own in your config.toml"))
		}
	}
	return errs
}

// mcpServersTable returns d's table of servers and its key: mcpServers of a
// JSON file, mcp.servers of the user's config.toml.
func (d *Document) mcpServersTable() (map[string]any, string, []error) {
	warn := d.Kind != MCPFlag
	if d.Format == JSON {
		var errs []error
		for _, k := range sortedMapKeys(d.Tree) {
			if k != "mcpServers" {
				errs = append(errs, d.errorAt(k, true, "unknown key %q, ignored (an MCP configuration file holds mcpServers)", k))
			}
		}
		raw, ok := d.Tree["mcpServers"]
		if !ok {
			return nil, "", errs
		}
		m, ok := raw.(map[string]any)
		if !ok {
			return nil, "", append(errs, d.errorAt("mcpServers", warn, "mcpServers must be an object, not %s; none of this file's servers start", kindOf(raw)))
		}
		return m, "mcpServers", errs
	}
	raw, ok := d.Tree["mcp"]
	if !ok {
		return nil, "", nil
	}
	mcp, ok := raw.(map[string]any)
	if !ok {
		return nil, "", []error{d.errorAt("mcp", true, "[mcp] must be a table, not %s; no server of it starts", kindOf(raw))}
	}
	var errs []error
	for _, k := range sortedMapKeys(mcp) {
		if k != "servers" {
			errs = append(errs, d.errorAt("mcp."+k, true, "[mcp] unknown key %q, ignored (known: servers)", k))
		}
	}
	raw, ok = mcp["servers"]
	if !ok {
		return nil, "", errs
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, "", append(errs, d.errorAt("mcp.servers", true, "mcp.servers must be a table of [mcp.servers.NAME] tables, not %s", kindOf(raw)))
	}
	return m, "mcp.servers", errs
}

// mcpEntriesOf reads the servers of t, expanding with x. An entry with a
// problem is left out.
func (d *Document) mcpEntriesOf(t mcpTable, x *expander) ([]MCPServerEntry, []error) {
	errs := t.errs
	var out []MCPServerEntry
	for _, name := range sortedMapKeys(t.table) {
		e, eerrs := d.mcpEntry(t.base+"."+name, name, t.table[name], x)
		errs = append(errs, eerrs...)
		if e != nil {
			e.Local = t.local
			out = append(out, *e)
		}
	}
	return out, errs
}

// mcpEntry reads one server entry at key.
func (d *Document) mcpEntry(key, name string, raw any, x *expander) (*MCPServerEntry, []error) {
	warn := d.Kind != MCPFlag
	fail := func(k, format string, args ...any) (*MCPServerEntry, []error) {
		return nil, []error{d.errorAt(k, warn, "MCP server %s not started: "+format, append([]any{name}, args...)...)}
	}
	if err := ValidMCPName(name); err != nil {
		return fail(key, "%v", err)
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return fail(key, "the entry must be an object, not %s", kindOf(raw))
	}
	var errs []error
	for _, k := range sortedMapKeys(m) {
		if !slices.Contains(mcpEntryKeys, k) {
			errs = append(errs, d.errorAt(key+"."+k, true, "MCP server %s: unknown key %q, ignored (known: %s)", name, k, strings.Join(mcpEntryKeys, ", ")))
		}
	}
	e := &MCPServerEntry{Name: name, Kind: d.Kind, Path: d.Path}
	e.Line, _ = d.Line(key)
	written := map[string]any{}
	for _, k := range []string{"type", "command", "url"} {
		v, ok := m[k]
		if !ok {
			continue
		}
		s, ok := v.(string)
		if !ok {
			out, ferrs := fail(key+"."+k, "%s must be a string, not %s", k, kindOf(v))
			return out, append(errs, ferrs...)
		}
		written[k] = s
	}
	args, err := d.stringList(key+".args", m["args"], warn)
	if err != nil {
		err.Err = prefixed("MCP server "+name+" not started: ", err.Err)
		return nil, append(errs, err)
	}
	if args != nil {
		list := make([]string, len(args))
		for i, a := range args {
			list[i] = a.Text
		}
		written["args"] = list
	}
	for _, k := range []string{"env", "headers"} {
		v, ok := m[k]
		if !ok {
			continue
		}
		tab, ok := v.(map[string]any)
		if !ok {
			out, ferrs := fail(key+"."+k, "%s must be an object of strings, not %s", k, kindOf(v))
			return out, append(errs, ferrs...)
		}
		strs := map[string]string{}
		for _, n := range sortedMapKeys(tab) {
			s, ok := tab[n].(string)
			if !ok {
				out, ferrs := fail(key+"."+k+"."+n, "%s.%s must be a string, not %s", k, n, kindOf(tab[n]))
				return out, append(errs, ferrs...)
			}
			if k == "env" && !envNameRE.MatchString(n) {
				// "NODE_OPTIONS=--require ./x.js --title" would reach the
				// server's environment as NODE_OPTIONS (red team 2).
				out, ferrs := fail(key+"."+k+"."+n, "env name %q is not a variable name (letters, digits and _, not starting with a digit)", n)
				return out, append(errs, ferrs...)
			}
			strs[n] = s
		}
		written[k] = strs
	}
	typ, _ := written["type"].(string)
	command, _ := written["command"].(string)
	url, _ := written["url"].(string)
	switch {
	case typ == "" && command != "":
		typ = "stdio"
	case typ == "" && url != "":
		return fail(key, `an entry with a url needs "type": "http" (streamable HTTP) or "sse"`)
	case typ == "":
		return fail(key, `the entry needs a command (stdio) or "type" and "url" (http, sse)`)
	case !slices.Contains(MCPTypes, typ):
		return fail(key+".type", "type %q is not one of %s", typ, strings.Join(MCPTypes, ", "))
	}
	e.Type = typ
	if typ == "stdio" {
		if strings.TrimSpace(command) == "" {
			return fail(key, "a stdio server needs a command")
		}
		if url != "" || m["headers"] != nil {
			return fail(key, "a stdio server has a command, not url or headers")
		}
	} else {
		if url == "" {
			return fail(key, "an %s server needs a url", typ)
		}
		if command != "" || m["args"] != nil || m["env"] != nil {
			return fail(key, "an %s server has a url, not command, args or env", typ)
		}
	}
	// Expand, each error at its value's line.
	exp := func(k, s string) (string, bool) {
		out, err := x.expand(s)
		if err != nil {
			errs = append(errs, d.errorAt(k, warn, "MCP server %s not started: %s: %v", name, k[len(key)+1:], err))
			return "", false
		}
		return out, true
	}
	ok = true
	var good bool
	if e.Command, good = exp(key+".command", command); !good {
		ok = false
	}
	for i, a := range args {
		v, good := exp(fmt.Sprintf("%s.args[%d]", key, i), a.Text)
		ok = ok && good
		e.Args = append(e.Args, v)
	}
	if e.URL, good = exp(key+".url", url); !good {
		ok = false
	}
	for _, k := range []string{"env", "headers"} {
		strs, _ := written[k].(map[string]string)
		if strs == nil {
			continue
		}
		out := map[string]string{}
		for _, n := range sortedKeys(strs) {
			v, good := exp(key+"."+k+"."+n, strs[n])
			ok = ok && good
			out[n] = v
		}
		if k == "env" {
			e.Env = out
		} else {
			e.Headers = out
		}
	}
	if !ok {
		return nil, errs
	}
	written["type"] = typ
	e.Fingerprint = mcpFingerprint(written)
	e.Written = MCPWritten{Command: command, URL: url}
	for _, a := range args {
		e.Written.Args = append(e.Written.Args, a.Text)
	}
	e.Written.Env, _ = written["env"].(map[string]string)
	e.Written.Headers, _ = written["headers"].(map[string]string)
	return e, errs
}

// mcpFingerprint is the hex SHA-256 of an entry's written fields as canonical
// JSON (encoding/json sorts map keys).
func mcpFingerprint(written map[string]any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(written) // strings, lists and maps of strings only
	sum := sha256.Sum256(b.Bytes())
	return hex.EncodeToString(sum[:])
}

// MCPConfigArg reads one --mcp-config value: a JSON file in the .mcp.json shape,
// or (as Claude Code) the JSON itself when the value starts with '{'. Its
// problems are fatal: the person asked for those servers. The document joins
// the sources, after every earlier one.
func (s *Sources) MCPConfigArg(value string) {
	order := 0
	for _, d := range s.Docs {
		if d.Kind == MCPFlag {
			order++
		}
	}
	src := Source{Kind: MCPFlag, Path: value, Name: "--mcp-config " + value, Format: JSON}
	var d *Document
	if strings.HasPrefix(strings.TrimSpace(value), "{") {
		src.Path, src.Name = "--mcp-config", "--mcp-config"
		d = &Document{Source: src, Exists: true, Data: []byte(value)}
		if len(value) > MaxFileSize {
			d.Err = &FileError{Path: src.Path, Err: fmt.Errorf("the value is larger than %d bytes", MaxFileSize)}
		} else {
			d.Tree, d.pos, d.Err = decodeJSON(src.Path, d.Data)
		}
	} else {
		d = readDocument(src, "")
		if !d.Exists {
			d.Exists, d.Err = true, &FileError{Path: value, Err: fmt.Errorf("no such file (--mcp-config takes a JSON file in the .mcp.json shape)")}
		}
	}
	d.order = order
	s.Docs = append(s.Docs, d)
}

// MCPJSONApprovals are the approvals of project servers Claude Code keeps in
// the user's ~/.claude/settings.json (never a project's settings, which come
// with the repository): enableAllProjectMcpServers approves every server of
// every project's .mcp.json, enabledMcpjsonServers the ones named,
// disabledMcpjsonServers refuses the ones named (over the other two).
type MCPJSONApprovals struct {
	All      bool
	Enabled  []string
	Disabled []string
}

// mcpApprovalKeys are Claude Code's settings keys of project-server approval.
var mcpApprovalKeys = []string{"enableAllProjectMcpServers", "enabledMcpjsonServers", "disabledMcpjsonServers"}

// MCPJSONApprovals reads them from ~/.claude/settings.json; the same keys in a
// project's .claude/settings*.json are a warning and not applied (a repository
// cannot approve its own servers).
func (s *Sources) MCPJSONApprovals() (MCPJSONApprovals, []error) {
	var out MCPJSONApprovals
	var errs []error
	for _, d := range s.docs(ProjectClaude, LocalClaude) {
		for _, k := range mcpApprovalKeys {
			if _, ok := d.Tree[k]; ok {
				errs = append(errs, d.errorAt(k, true, "%s in a project's settings is not applied: a repository cannot approve its own MCP servers (approve them with pincer mcp approve, or set it in ~/.claude/settings.json)", k))
			}
		}
	}
	for _, d := range s.docs(UserClaude) {
		b, err := d.boolean("enableAllProjectMcpServers", d.Tree["enableAllProjectMcpServers"])
		if err != nil {
			errs = append(errs, asWarning(err))
		} else if b != nil {
			out.All = *b
		}
		for _, l := range []struct {
			key string
			dst *[]string
		}{{"enabledMcpjsonServers", &out.Enabled}, {"disabledMcpjsonServers", &out.Disabled}} {
			vals, err := d.stringList(l.key, d.Tree[l.key], true)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			for _, v := range vals {
				*l.dst = append(*l.dst, v.Text)
			}
		}
	}
	return out, errs
}

// asWarning marks a *FileError a warning.
func asWarning(err error) error {
	if fe, ok := err.(*FileError); ok {
		fe.Warning = true
	}
	return err
}

// MCPJSONPath is the project's .mcp.json in workspace.
func MCPJSONPath(workspace string) string { return filepath.Join(workspace, ".mcp.json") }

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// HasMCPEntry reports whether the source of kind (UserConfig or ProjectMCP)
// holds an entry named name, valid or not (so that `pincer mcp remove` finds a
// broken one too).
func (s *Sources) HasMCPEntry(kind Kind, name string) bool {
	for _, d := range s.docs(kind) {
		for _, t := range d.mcpTables(s.Workspace) {
			if _, ok := t.table[name]; ok {
				return true
			}
		}
	}
	return false
}
