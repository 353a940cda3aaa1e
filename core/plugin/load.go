package plugin

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"pincer/core/config"
	"pincer/core/mcp"
)

// Plugin is one plugin directory as read: its manifest and what it
// contributes. When Errors is not empty it contributes nothing (every
// contribution list is empty) and only Name, Root and Manifest (when it
// parsed) are left for listing.
type Plugin struct {
	Name     string    // the manifest's name; the directory's when there is no manifest
	Root     string    // the plugin's directory, absolute
	Manifest *Manifest // nil when the plugin has none (it is optional, as in Claude Code)

	// SkillDirs are the skills directories to scan (each holds NAME/SKILL.md,
	// or is itself a skill's directory): skills/ and the manifest's "skills".
	SkillDirs []string
	// CommandPaths are the commands directories (*.md, subdirectories
	// namespacing as in .claude/commands) and single command files: commands/
	// and the manifest's "commands".
	CommandPaths []string
	Agents       []Agent
	// Hooks are the plugin's hook tables (hooks/hooks.json, the manifest's
	// "hooks" files or its inline object), ${CLAUDE_PLUGIN_ROOT} expanded in
	// every command; not Project (the person installed the plugin).
	Hooks      []config.HookTable
	MCPServers []mcp.ServerConfig // named ServerName(plugin, server), Scope plugin
	LSPServers []LSPServer

	Errors []error
}

// Origin is the plugin's origin mark, "plugin:NAME" (tools.Spec.Origin, the
// skill and command catalog, the audit trail).
func (p *Plugin) Origin() string { return "plugin:" + p.Name }

// Agent is one agent definition a plugin contributes (agents/*.md). core/app
// hands its Path to core/subagent, which reads the whole definition (the
// Agent tool's PLUGIN:name types).
type Agent struct {
	Name        string // the frontmatter's name, else the file's base name, namespaced "PLUGIN:NAME"
	Description string
	Path        string
}

// LSPServer is one language server a plugin contributes (.lsp.json: {NAME:
// {command, args, extensionToLanguage, ...}}). Pincer records it for the
// diagnostics to come; it is listed, not yet used.
type LSPServer struct {
	Name       string // as the file names it
	Command    string
	Args       []string
	Extensions map[string]string // extensionToLanguage: ".go" -> "go"
	File       string
}

// ServerName is the name of plugin's MCP server server in pincer:
// "plugin_PLUGIN_SERVER" (Claude Code's), so its tools are
// mcp__plugin_PLUGIN_SERVER__TOOL and cannot collide with a server of the
// user's or the project's (whose names cannot hold the plugin's prefix and
// name unless chosen so; the scope tells them apart in every view).
func ServerName(plugin, server string) string { return "plugin_" + plugin + "_" + server }

// Load reads the plugin in directory root. It never fails: every problem is
// in Plugin.Errors, and then the plugin contributes nothing (fail closed).
func Load(root string) *Plugin {
	abs, err := filepath.Abs(root)
	if err == nil {
		root = abs
	}
	p := &Plugin{Name: filepath.Base(root), Root: root}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		p.Errors = append(p.Errors, err)
		return p
	}
	m, errs := readManifest(root, realRoot)
	p.Manifest = m
	if m != nil && m.Name != "" {
		p.Name = m.Name
	}
	if m == nil && len(errs) == 0 {
		// No manifest: as Claude Code, the directory names the plugin and its
		// components are in the default locations.
		if err := ValidName(p.Name); err != nil {
			errs = append(errs, fmt.Errorf("%s: a plugin without a manifest (%s) is named after its directory: %v", root, strings.Join(ManifestPaths, " or "), err))
		}
		m = &Manifest{}
	}
	if len(errs) > 0 {
		p.Errors = errs
		return p
	}
	l := loader{p: p, root: root, realRoot: realRoot, m: m}
	l.load()
	if len(p.Errors) > 0 {
		*p = Plugin{Name: p.Name, Root: p.Root, Manifest: p.Manifest, Errors: p.Errors}
	}
	return p
}

// loader collects one plugin's contributions.
type loader struct {
	p              *Plugin
	root, realRoot string
	m              *Manifest
}

func (l *loader) fail(err error) { l.p.Errors = append(l.p.Errors, err) }

// manifestErr is a problem with the manifest's key at its line.
func (l *loader) manifestErr(key string, err error) {
	l.fail(l.m.doc.ErrorAt(key, "%s: %v", key, err))
}

// paths resolves the default location def (used when it exists) and the
// manifest's list for key, each once.
func (l *loader) paths(def, key string, list []string) []string {
	var out []string
	add := func(p string) {
		for _, o := range out {
			if o == p {
				return
			}
		}
		out = append(out, p)
	}
	if def != "" {
		if abs, err := componentPath(l.root, l.realRoot, def); err == nil {
			add(abs)
		} else if _, serr := os.Lstat(filepath.Join(l.root, def)); serr == nil {
			l.fail(fmt.Errorf("%s: %v", filepath.Join(l.root, def), err)) // there, but a link out
		}
	}
	for i, rel := range list {
		abs, err := componentPath(l.root, l.realRoot, rel)
		if err != nil {
			k := key
			if len(list) > 1 || l.listed(key) {
				k = fmt.Sprintf("%s[%d]", key, i)
			}
			l.manifestErr(k, err)
			continue
		}
		add(abs)
	}
	return out
}

// listed reports whether the manifest's key is an array.
func (l *loader) listed(key string) bool { _, ok := l.m.doc.Tree[key].([]any); return ok }

func (l *loader) load() {
	l.p.SkillDirs = l.dirs(l.paths("skills", "skills", l.m.Skills), "skills")
	l.p.CommandPaths = l.paths("commands", "commands", l.m.Commands)
	l.loadAgents(l.paths("agents", "agents", l.m.Agents))
	l.loadHooks()
	l.loadMCP()
	l.loadLSP()
}

// dirs keeps the directories of paths; a file is an error (what names it).
func (l *loader) dirs(paths []string, what string) []string {
	var out []string
	for _, p := range paths {
		if st, err := os.Stat(p); err != nil || !st.IsDir() {
			l.fail(fmt.Errorf("%s: the plugin's %s must be directories", p, what))
			continue
		}
		out = append(out, p)
	}
	return out
}

// loadAgents records every agents/*.md (a directory's, or a file named).
func (l *loader) loadAgents(paths []string) {
	for _, p := range paths {
		files := []string{p}
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			files = nil
			entries, err := os.ReadDir(p)
			if err != nil {
				l.fail(err)
				continue
			}
			for _, e := range entries {
				if strings.HasSuffix(e.Name(), ".md") && !e.IsDir() {
					files = append(files, filepath.Join(p, e.Name()))
				}
			}
		}
		for _, f := range files {
			a, err := readAgent(f, l.realRoot)
			if err != nil {
				l.fail(err)
				continue
			}
			a.Name = l.p.Name + ":" + a.Name
			l.p.Agents = append(l.p.Agents, a)
		}
	}
}

// loadHooks reads hooks/hooks.json, the manifest's hook files and its inline
// hooks.
func (l *loader) loadHooks() {
	var docs []*config.Document
	for _, f := range l.files(l.paths(filepath.Join("hooks", "hooks.json"), "hooks", l.m.Hooks)) {
		docs = append(docs, f)
	}
	if l.m.InlineHooks {
		docs = append(docs, l.m.doc)
	}
	for _, d := range docs {
		t, ok, errs := d.HookTable()
		for _, err := range errs {
			l.fail(err)
		}
		if !ok {
			if d != l.m.doc && len(errs) == 0 {
				l.fail(&config.FileError{Path: d.Path, Line: 1, Err: errors.New("a hooks file holds a \"hooks\" object (Claude Code's shape)")})
			}
			continue
		}
		t.Project, t.Origin = false, l.p.Origin()
		for i := range t.Hooks {
			t.Hooks[i].Command = ExpandRoot(t.Hooks[i].Command, l.root)
		}
		l.p.Hooks = append(l.p.Hooks, t)
	}
}

// files reads each path as a JSON document; a problem is the plugin's.
func (l *loader) files(paths []string) []*config.Document {
	var out []*config.Document
	for _, p := range paths {
		d := config.ReadFile(p, filepath.Base(p), config.JSON, l.realRoot)
		if d.Err != nil {
			l.fail(d.Err)
			continue
		}
		if !d.Exists {
			continue
		}
		out = append(out, d)
	}
	return out
}

// servers returns the server objects of d: the "mcpServers" object when it has
// one (.mcp.json's shape), else its top level ({NAME: {...}}), and the key
// prefix of their positions.
func servers(d *config.Document, wrapper string) (map[string]any, string) {
	if m, ok := d.Tree[wrapper].(map[string]any); ok {
		return m, wrapper + "."
	}
	return d.Tree, ""
}

// serverSource is one table of server entries: the document it is in, the
// table, and the key path prefix its entries' errors name.
type serverSource struct {
	d      *config.Document
	m      map[string]any
	prefix string
}

// serverSources are the server tables of one kind (key "mcpServers" or
// "lspServers"): the default file (def) and the manifest's files (paths),
// then the manifest's inline table when inline.
func (l *loader) serverSources(def, key string, paths []string, inline bool) []serverSource {
	var srcs []serverSource
	for _, d := range l.files(l.paths(def, key, paths)) {
		m, prefix := servers(d, key)
		srcs = append(srcs, serverSource{d, m, prefix})
	}
	if inline {
		srcs = append(srcs, serverSource{l.m.doc, l.m.doc.Tree[key].(map[string]any), key + "."})
	}
	return srcs
}

// loadMCP reads .mcp.json, the manifest's server files and its inline servers.
func (l *loader) loadMCP() {
	srcs := l.serverSources(".mcp.json", "mcpServers", l.m.MCPServers, l.m.InlineMCP)
	seen := map[string]string{}
	lookup := func(v string) (string, bool) {
		if v == "CLAUDE_PLUGIN_ROOT" || v == "PINCER_PLUGIN_ROOT" {
			return l.root, true
		}
		return os.LookupEnv(v)
	}
	for _, s := range srcs {
		entries, errs := s.d.MCPEntriesIn(s.m, strings.TrimSuffix(s.prefix, "."), lookup)
		for _, err := range config.Fatal(errs) {
			l.fail(err)
		}
		for _, e := range entries {
			if prev, dup := seen[e.Name]; dup {
				l.fail(&config.FileError{Path: e.Path, Line: e.Line, Err: fmt.Errorf("MCP server %q is defined twice (also in %s)", e.Name, prev)})
				continue
			}
			seen[e.Name] = e.Path
			l.p.MCPServers = append(l.p.MCPServers, mcp.ServerConfig{
				Name: ServerName(l.p.Name, e.Name), Transport: mcp.Transport(e.Type), Command: e.Command, Args: e.Args,
				Env: e.Env, URL: e.URL, Headers: e.Headers, Scope: mcp.ScopePlugin, File: e.Path, Line: e.Line,
				Fingerprint: e.Fingerprint, Plugin: l.p.Name, Approved: true, Written: mcp.Written(e.Written),
			})
		}
	}
}

// loadLSP reads .lsp.json, the manifest's LSP files and its inline servers.
func (l *loader) loadLSP() {
	srcs := l.serverSources(".lsp.json", "lspServers", l.m.LSPServers, l.m.InlineLSP)
	for _, s := range srcs {
		for _, name := range sortedKeys(s.m) {
			key := s.prefix + name
			obj, ok := s.m[name].(map[string]any)
			if !ok {
				l.fail(s.d.ErrorAt(key, "LSP server %q must be an object", name))
				continue
			}
			ls := LSPServer{Name: name, File: s.d.Path, Extensions: map[string]string{}}
			var errs []error
			ls.Command = ExpandRoot(strField(s.d, key, obj, "command", &errs), l.root)
			for _, a := range strList(s.d, key, obj, "args", &errs) {
				ls.Args = append(ls.Args, ExpandRoot(a, l.root))
			}
			for k, v := range strMap(s.d, key, obj, "extensionToLanguage", &errs) {
				ls.Extensions[k] = v
			}
			if ls.Command == "" && len(errs) == 0 {
				errs = append(errs, s.d.ErrorAt(key, "LSP server %q has no \"command\"", name))
			}
			if len(errs) > 0 {
				for _, err := range errs {
					l.fail(err)
				}
				continue
			}
			l.p.LSPServers = append(l.p.LSPServers, ls)
		}
	}
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
