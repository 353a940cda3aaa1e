package config

import (
	"strings"

	"pincer/sandbox"
)

// sandboxKeys are the keys of a [sandbox] table.
var sandboxKeys = []string{"enabled", "network", "require_landlock", "writable_roots", "env_allow"}

// Sandbox returns the [sandbox] layers of the user config then the project's
// (sandbox.PolicyFrom applies them; the project's may only tighten). A value of
// the wrong type is fatal: the table holds safety settings, and pincer does not
// run without them; so is an unknown key (a misspelled `require_landlok = true`
// would drop a tightening without a word).
func (s *Sources) Sandbox() ([]sandbox.Layer, []error) {
	var out []sandbox.Layer
	var errs []error
	for _, d := range s.docs(UserConfig, ProjectConfig) {
		raw, ok := d.Tree["sandbox"]
		if !ok {
			continue
		}
		m, ok := raw.(map[string]any)
		if !ok {
			errs = append(errs, d.errorAt("sandbox", false, "[sandbox] not applied: sandbox must be a table, not %s", kindOf(raw)))
			continue
		}
		l := sandbox.Layer{Path: d.Path, Project: d.Project, Lines: map[string]int{}}
		var bad []error
		for _, b := range []struct {
			key string
			dst **bool
		}{{"enabled", &l.Enabled}, {"network", &l.Network}, {"require_landlock", &l.RequireLandlock}} {
			v, err := d.boolean("sandbox."+b.key, m[b.key])
			if err != nil {
				bad = append(bad, err)
			}
			*b.dst = v
		}
		for _, sl := range []struct {
			key string
			dst *[]string
		}{{"writable_roots", &l.WritableRoots}, {"env_allow", &l.EnvAllow}} {
			vals, err := d.stringList("sandbox."+sl.key, m[sl.key], false)
			if err != nil {
				bad = append(bad, err)
			}
			for _, v := range vals {
				*sl.dst = append(*sl.dst, v.Text)
			}
		}
		for _, k := range sortedMapKeys(m) {
			l.Lines[k], _ = d.Line("sandbox." + k)
			if !oneOf(k, sandboxKeys) {
				bad = append(bad, d.errorAt("sandbox."+k, false, "sandbox.%s: unknown key (want %s)", k, strings.Join(sandboxKeys, ", ")))
			}
		}
		if len(bad) > 0 { // the table is not applied at all: fail closed
			for _, e := range bad {
				fe := e.(*FileError)
				fe.Err = prefixed("[sandbox] not applied: ", fe.Err)
			}
			errs = append(errs, bad...)
			continue
		}
		out = append(out, l)
	}
	return out, append(errs, s.claudeSandbox()...)
}

// claudeSandbox warns of Claude Code's "sandbox" object in a settings.json
// ({"enabled": false, "excludedCommands": [...], "network": {...}}): it is not
// pincer's [sandbox] table and is not applied — the sandbox keeps the user's
// config.toml settings — and saying so at its FILE:LINE is the point: a
// project's "enabled": false or "excludedCommands" would loosen the sandbox,
// which a project file may never do (docs/SECURITY.md).
func (s *Sources) claudeSandbox() []error {
	var errs []error
	for _, d := range s.docs(UserClaude, ProjectClaude, LocalClaude) {
		raw, ok := d.Tree["sandbox"]
		if !ok {
			continue
		}
		keys := "it"
		if m, ok := raw.(map[string]any); ok && len(m) > 0 {
			keys = strings.Join(sortedMapKeys(m), ", ")
		}
		why := "pincer's sandbox is configured in [sandbox] of your config.toml"
		if d.Project {
			why = "a project file may only tighten pincer's sandbox, in [sandbox] of .pincer/config.toml; the sandbox stays as your config.toml sets it"
		}
		errs = append(errs, d.errorAt("sandbox", true, "Claude Code's sandbox settings are not applied (%s): %s", keys, why))
	}
	return errs
}
