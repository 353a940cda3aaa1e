package config

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// Typed tables of the sources, for the behaviour packages. Each extractor
// checks the shape of its table (a value of the wrong type is a *FileError at
// its line, fatal unless said otherwise) and hands over plain values with their
// positions; what the values mean (a rule's syntax, a hook event's name) is the
// behaviour package's to check.

// Value is a string of a config file and where it is.
type Value struct {
	Text         string
	Line, Column int
}

// PermissionTable is the [permissions] table of one file (Claude Code's
// "permissions" object in JSON).
type PermissionTable struct {
	Path, Name       string // Source.Path and Source.Name
	Allow, Ask, Deny []Value
	// Project is Source.Project: the table comes with the workspace (not
	// trusted), so its allow rules never reach outside it (permission.Rule.Project).
	Project bool
}

// permissionKeys are the keys a permissions table may hold: pincer's lists, its
// [permissions.classifier] table (Classifier reads it), and
// the other settings of Claude Code's "permissions" object, which pincer does not
// act on (additionalDirectories; defaultMode — the mode comes from the user's
// flags only; disableBypassPermissionsMode).
var permissionKeys = []string{"allow", "ask", "deny", "classifier", "additionalDirectories", "defaultMode", "disableBypassPermissionsMode"}

// Permissions returns the permission tables of the user config, the project's
// config.toml and settings.local.toml, and Claude Code's project settings, in
// that order. An unknown key of a table (`dney`) is fatal: it would drop rules in
// silence.
func (s *Sources) Permissions() ([]PermissionTable, []error) {
	var out []PermissionTable
	var errs []error
	for _, d := range s.docs(UserConfig, ProjectConfig, LocalSettings, ProjectClaude, LocalClaude) {
		if d.Kind == LocalSettings {
			errs = append(errs, localSettingsOthers(d)...)
		}
		raw, ok := d.Tree["permissions"]
		if !ok {
			continue
		}
		m, ok := raw.(map[string]any)
		if !ok {
			errs = append(errs, d.errorAt("permissions", false, "permissions must be a table, not %s", kindOf(raw)))
			continue
		}
		t := PermissionTable{Path: d.Path, Name: d.Name, Project: d.Project}
		for _, k := range sortedMapKeys(m) {
			if !oneOf(k, permissionKeys) {
				errs = append(errs, d.errorAt("permissions."+k, false, "permissions.%s: unknown key (want allow, ask or deny)", k))
			}
		}
		for _, l := range []struct {
			key string
			dst *[]Value
		}{{"allow", &t.Allow}, {"ask", &t.Ask}, {"deny", &t.Deny}} {
			v, err := d.stringList("permissions."+l.key, m[l.key], false)
			if err != nil {
				errs = append(errs, err)
			}
			*l.dst = v
		}
		out = append(out, t)
	}
	return out, errs
}

// HookEntry is one hook definition as a file writes it. Timeout is in seconds
// (0: the default).
type HookEntry struct {
	Event   string
	Matcher string
	Type    string // Claude Code's hook type ("command"); "" in config.toml
	Command string
	Timeout float64
	Where   string // its place in the file: "hooks.PreToolUse[0]", "hooks.PreToolUse[0].hooks[1]"
	Line    int
}

// HookTable is the hooks of one file, in file order.
type HookTable struct {
	Path    string
	Format  Format // TOML: [[hooks.EVENT]] tables; JSON: Claude Code's matcher groups
	Project bool   // the file comes with the workspace (its hooks run once trusted)
	// Origin marks hooks that are neither the user's nor the project's: an
	// enabled plugin's ("plugin:NAME"; core/plugin sets it).
	Origin string
	Hooks  []HookEntry
}

// Hooks returns the hook tables of the user config, ~/.claude/settings.json,
// the project's config.toml and Claude Code's project settings, in that order.
// Events are in name order, each event's hooks in file order.
func (s *Sources) Hooks() ([]HookTable, []error) {
	var out []HookTable
	var errs []error
	for _, d := range s.docs(UserConfig, UserClaude, ProjectConfig, ProjectClaude, LocalClaude) {
		t, ok, err := d.HookTable()
		errs = append(errs, err...)
		if ok {
			out = append(out, t)
		}
	}
	return out, errs
}

// HookTable returns the hooks of d's "hooks" table (config.toml's
// [[hooks.EVENT]] tables, or Claude Code's matcher groups in JSON — also the
// shape of a plugin's hooks/hooks.json and of plugin.json's inline "hooks"),
// events in name order. ok is false when d has no "hooks" key or it is not a
// table (then errs says so).
func (d *Document) HookTable() (t HookTable, ok bool, errs []error) {
	raw, ok := d.Tree["hooks"]
	if !ok {
		return HookTable{}, false, nil
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return HookTable{}, false, []error{d.errorAt("hooks", false, "hooks must be a table, not %s", kindOf(raw))}
	}
	t = HookTable{Path: d.Path, Format: d.Format, Project: d.Project}
	for _, ev := range sortedMapKeys(m) {
		entries, err := d.hookEntries(ev, m[ev])
		errs = append(errs, err...)
		t.Hooks = append(t.Hooks, entries...)
	}
	return t, true, errs
}

// hookEntries reads hooks.EVENT of d.
func (d *Document) hookEntries(ev string, raw any) ([]HookEntry, []error) {
	key := "hooks." + ev
	list, ok := raw.([]any)
	if !ok {
		return nil, []error{d.errorAt(key, false, "%s must be an array of tables, not %s", key, kindOf(raw))}
	}
	var out []HookEntry
	var errs []error
	for i, el := range list {
		where := fmt.Sprintf("%s[%d]", key, i)
		tab, ok := el.(map[string]any)
		if !ok {
			errs = append(errs, d.errorAt(where, false, "%s must be a table, not %s", where, kindOf(el)))
			continue
		}
		matcher, err := d.str(where+".matcher", tab["matcher"])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if d.Format == TOML {
			if bad := unknownHookKeys(d, where, tab); len(bad) > 0 { // pincer's own format: a typo drops a hook
				errs = append(errs, bad...)
				continue
			}
			e := HookEntry{Event: ev, Matcher: matcher, Where: where}
			e.Line, _ = d.Line(where)
			var errC, errT error
			e.Command, errC = d.str(where+".command", tab["command"])
			e.Timeout, errT = d.number(where+".timeout", tab["timeout"])
			if errC != nil || errT != nil {
				errs = append(errs, nonNil(errC, errT)...)
				continue
			}
			out = append(out, e)
			continue
		}
		hooks, ok := tab["hooks"].([]any)
		if !ok && tab["hooks"] != nil {
			errs = append(errs, d.errorAt(where+".hooks", false, "%s.hooks must be an array, not %s", where, kindOf(tab["hooks"])))
			continue
		}
		for j, h := range hooks {
			hw := fmt.Sprintf("%s.hooks[%d]", where, j)
			ht, ok := h.(map[string]any)
			if !ok {
				errs = append(errs, d.errorAt(hw, false, "%s must be an object, not %s", hw, kindOf(h)))
				continue
			}
			e := HookEntry{Event: ev, Matcher: matcher, Where: hw}
			e.Line, _ = d.Line(hw)
			var errY, errC, errT error
			e.Type, errY = d.str(hw+".type", ht["type"])
			e.Command, errC = d.str(hw+".command", ht["command"])
			e.Timeout, errT = d.number(hw+".timeout", ht["timeout"])
			if errY != nil || errC != nil || errT != nil {
				errs = append(errs, nonNil(errY, errC, errT)...)
				continue
			}
			out = append(out, e)
		}
	}
	return out, errs
}

// hookKeys are the keys of a [[hooks.EVENT]] table of config.toml.
var hookKeys = []string{"matcher", "command", "timeout"}

// unknownHookKeys returns an error at its line for each key of a config.toml
// hook table that is not a hookKeys entry (`comand = "guard.sh"` would
// otherwise read as a hook with no command).
func unknownHookKeys(d *Document, where string, tab map[string]any) []error {
	var errs []error
	for _, k := range sortedMapKeys(tab) {
		if !slices.Contains(hookKeys, k) {
			errs = append(errs, d.errorAt(where+"."+k, false, "%s: unknown key %q (want %s)", where, k, strings.Join(hookKeys, ", ")))
		}
	}
	return errs
}

// KeyTable is the [keys] table of one file: action name to key list.
type KeyTable struct {
	Path     string
	Bindings map[string]string
}

// Keys returns the [keys] table of the user's config.toml. A value of the
// wrong type is a warning: the entry is left out. A project file's [keys] is
// a warning and not applied (userOnlyTables: a repository could otherwise
// rebind the approval keys).
func (s *Sources) Keys() ([]KeyTable, []error) {
	var out []KeyTable
	errs := s.projectUserOnly("keys")
	for _, d := range s.docs(UserConfig) {
		raw, ok := d.Tree["keys"]
		if !ok {
			continue
		}
		m, ok := raw.(map[string]any)
		if !ok {
			errs = append(errs, d.errorAt("keys", true, "[keys] not applied: keys must be a table, not %s", kindOf(raw)))
			continue
		}
		t := KeyTable{Path: d.Path, Bindings: map[string]string{}}
		for _, a := range sortedMapKeys(m) {
			v, ok := m[a].(string)
			if !ok {
				errs = append(errs, d.errorAt("keys."+a, true, "[keys] %s: want a string of keys, not %s", a, kindOf(m[a])))
				continue
			}
			t.Bindings[a] = v
		}
		out = append(out, t)
	}
	return out, errs
}

// stringList reads an optional array of strings at key.
func (d *Document) stringList(key string, raw any, warning bool) ([]Value, *FileError) {
	if raw == nil {
		return nil, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, d.errorAt(key, warning, "%s must be an array of strings, not %s", key, kindOf(raw))
	}
	out := make([]Value, 0, len(list))
	for i, el := range list {
		at := fmt.Sprintf("%s[%d]", key, i)
		s, ok := el.(string)
		if !ok {
			return nil, d.errorAt(at, warning, "%s must be a string, not %s", at, kindOf(el))
		}
		line, col := d.Line(at)
		out = append(out, Value{Text: s, Line: line, Column: col})
	}
	return out, nil
}

// str reads an optional string at key ("" when absent).
func (d *Document) str(key string, raw any) (string, error) {
	if raw == nil {
		return "", nil
	}
	s, ok := raw.(string)
	if !ok {
		return "", d.errorAt(key, false, "%s must be a string, not %s", key, kindOf(raw))
	}
	return s, nil
}

// number reads an optional number at key (0 when absent).
func (d *Document) number(key string, raw any) (float64, error) {
	switch n := raw.(type) {
	case nil:
		return 0, nil
	case float64:
		return n, nil
	case int64:
		return float64(n), nil
	}
	return 0, d.errorAt(key, false, "%s must be a number, not %s", key, kindOf(raw))
}

// boolean reads an optional true or false at key.
func (d *Document) boolean(key string, raw any) (*bool, error) {
	if raw == nil {
		return nil, nil
	}
	b, ok := raw.(bool)
	if !ok {
		return nil, d.errorAt(key, false, "%s must be true or false, not %s", key, kindOf(raw))
	}
	return &b, nil
}

// kindOf names a decoded value's type for messages.
func kindOf(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "true or false"
	case int64, float64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	case nil:
		return "null"
	case time.Time, toml.LocalDate, toml.LocalDateTime, toml.LocalTime:
		return "a date or time"
	}
	return "a value of another kind" // never a Go type name in a message
}

func nonNil(errs ...error) []error {
	var out []error
	for _, e := range errs {
		if e != nil {
			out = append(out, e)
		}
	}
	return out
}

// localSettingsOthers warns of every top-level key of .pincer/settings.local.toml
// but [permissions]: that file holds the rules "always" approvals save, and
// nothing else of it is read, so a [sandbox] or [hooks] written there would be
// ignored without a word.
func localSettingsOthers(d *Document) []error {
	var errs []error
	for _, k := range sortedMapKeys(d.Tree) {
		if k != "permissions" {
			errs = append(errs, d.errorAt(k, true, "%s is not read from settings.local.toml, which holds only [permissions] (put it in .pincer/config.toml)", k))
		}
	}
	return errs
}
