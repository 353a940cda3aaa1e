package config

import (
	"sort"
	"strings"
)

// lspKeys are the settings of the [lsp] table itself; any other key is a
// server table [lsp.NAME] with lspServerKeys.
var lspKeys = []string{"enabled", "wait_ms"}

// lspServerKeys are the keys of one [lsp.NAME] server table.
var lspServerKeys = []string{"command", "args", "extensions", "env", "disabled"}

// LSPServerTable is one [lsp.NAME] table of the user's config.toml: a
// language server pincer starts for files of Extensions (".go", with the
// dot). Disabled set (and nothing else needed) turns off the default server
// of that name (gopls, pyright, typescript).
type LSPServerTable struct {
	Name       string
	Command    string
	Args       []string
	Extensions []string
	Env        map[string]string
	Disabled   bool
	File       string // the config file, for messages
}

// LSPSettings are the [lsp] table's settings.
type LSPSettings struct {
	// EnabledSet is enabled as written (nil: not set: on).
	EnabledSet *bool
	// WaitMs bounds the wait for an edit's diagnostics in milliseconds (0:
	// not set, the default of core/lsp); 1 to 60000.
	WaitMs  int
	Servers []LSPServerTable // in name order
}

// Enabled is whether language servers run at all: enabled, default true.
func (l LSPSettings) Enabled() bool { return l.EnabledSet == nil || *l.EnabledSet }

// LSP reads the [lsp] table of the user's config.toml. A value of the wrong
// type or an unknown key is a warning and is left out (a server table with
// one is left out whole). A project file's [lsp] is a warning and is not
// applied (userOnlyTables): a server's command runs on every edit, so a
// repository must not name one.
func (s *Sources) LSP() (LSPSettings, []error) {
	var out LSPSettings
	errs := s.projectUserOnly("lsp")
	for _, d := range s.docs(UserConfig) {
		raw, ok := d.Tree["lsp"]
		if !ok {
			continue
		}
		m, ok := raw.(map[string]any)
		if !ok {
			errs = append(errs, d.errorAt("lsp", true, "[lsp] not applied: lsp must be a table, not %s", kindOf(raw)))
			continue
		}
		for _, k := range sortedMapKeys(m) {
			v := m[k]
			switch k {
			case "enabled":
				b, ok := v.(bool)
				if !ok {
					errs = append(errs, d.errorAt("lsp."+k, true, "[lsp] enabled: want true or false, not %v", v))
					continue
				}
				out.EnabledSet = &b
				continue
			case "wait_ms":
				n, ok := v.(int64)
				if !ok || n < 1 || n > 60000 {
					errs = append(errs, d.errorAt("lsp."+k, true, "[lsp] wait_ms: want milliseconds from 1 to 60000, not %v", v))
					continue
				}
				out.WaitMs = int(n)
				continue
			}
			t, ok := v.(map[string]any)
			if !ok {
				errs = append(errs, d.errorAt("lsp."+k, true, "[lsp] unknown key %q, ignored (known: %s, or a server table [lsp.NAME])", k, strings.Join(lspKeys, ", ")))
				continue
			}
			srv, serrs := lspServer(d, k, t)
			errs = append(errs, serrs...)
			if len(serrs) == 0 {
				out.Servers = append(out.Servers, srv)
			}
		}
	}
	sort.SliceStable(out.Servers, func(i, j int) bool { return out.Servers[i].Name < out.Servers[j].Name })
	return out, errs
}

// lspServer reads one [lsp.NAME] table; any error leaves the server out.
func lspServer(d *Document, name string, t map[string]any) (LSPServerTable, []error) {
	srv := LSPServerTable{Name: name, File: d.Path}
	var errs []error
	key := "lsp." + name
	bad := func(k, format string, a ...any) {
		errs = append(errs, d.errorAt(key+"."+k, true, "[lsp.%s] not applied: "+format, append([]any{name}, a...)...))
	}
	strs := func(k string, v any) []string {
		list, ok := v.([]any)
		if !ok {
			bad(k, "%s: want a list of strings, not %s", k, kindOf(v))
			return nil
		}
		var out []string
		for _, e := range list {
			s, ok := e.(string)
			if !ok {
				bad(k, "%s: want a list of strings, found %s", k, kindOf(e))
				return nil
			}
			out = append(out, s)
		}
		return out
	}
	for _, k := range sortedMapKeys(t) {
		v := t[k]
		switch k {
		case "command":
			s, ok := v.(string)
			if !ok || strings.TrimSpace(s) == "" {
				bad(k, "command: want the program to run, not %v", v)
				continue
			}
			srv.Command = s
		case "args":
			srv.Args = strs(k, v)
		case "extensions":
			for _, e := range strs(k, v) {
				if !strings.HasPrefix(e, ".") || len(e) < 2 {
					bad(k, "extensions: want extensions with their dot (\".go\"), not %q", e)
					continue
				}
				srv.Extensions = append(srv.Extensions, strings.ToLower(e))
			}
		case "env":
			m, ok := v.(map[string]any)
			if !ok {
				bad(k, "env: want a table of strings, not %s", kindOf(v))
				continue
			}
			srv.Env = map[string]string{}
			for ek, ev := range m {
				s, ok := ev.(string)
				if !ok {
					bad(k, "env.%s: want a string, not %s", ek, kindOf(ev))
					continue
				}
				srv.Env[ek] = s
			}
		case "disabled":
			b, ok := v.(bool)
			if !ok {
				bad(k, "disabled: want true or false, not %v", v)
				continue
			}
			srv.Disabled = b
		default:
			bad(k, "unknown key %q (known: %s)", k, strings.Join(lspServerKeys, ", "))
		}
	}
	if !srv.Disabled && len(errs) == 0 && (srv.Command == "" || len(srv.Extensions) == 0) {
		errs = append(errs, d.errorAt(key, true, "[lsp.%s] not applied: a server needs command and extensions", name))
	}
	return srv, errs
}
