package config

import "strings"

// toolsKeys are the keys of a [tools] table.
var toolsKeys = []string{"search"}

// ToolsSettings are the [tools] table's settings. A zero field was not set.
type ToolsSettings struct {
	// Search is `search`, the tool-search setting ("auto", "auto:N", "always",
	// "never": tools.ParseSearchPolicy reads it), with where it was written
	// (SearchPath and Search's line); the project's config.toml wins over the
	// user's.
	Search     Value
	SearchPath string
}

// Tools reads the [tools] table of the user's config.toml, then the
// project's (a later value wins: which tools are deferred only changes what a
// request carries, never what a tool may do). A value of the wrong type, or an
// unknown key, is a warning and is left out.
func (s *Sources) Tools() (ToolsSettings, []error) {
	var out ToolsSettings
	var errs []error
	for _, d := range s.docs(UserConfig, ProjectConfig) {
		raw, ok := d.Tree["tools"]
		if !ok {
			continue
		}
		m, ok := raw.(map[string]any)
		if !ok {
			errs = append(errs, d.errorAt("tools", true, "[tools] not applied: tools must be a table, not %s", kindOf(raw)))
			continue
		}
		for _, k := range sortedMapKeys(m) {
			switch k {
			case "search":
				v, ok := m[k].(string)
				if !ok {
					errs = append(errs, d.errorAt("tools."+k, true, "[tools] search: want \"auto\", \"auto:N\", \"always\" or \"never\", not %v", m[k]))
					continue
				}
				line, col := d.Line("tools." + k)
				out.Search, out.SearchPath = Value{Text: v, Line: line, Column: col}, d.Path
			default:
				errs = append(errs, d.errorAt("tools."+k, true, "[tools] unknown key %q, ignored (known: %s)", k, strings.Join(toolsKeys, ", ")))
			}
		}
	}
	return out, errs
}
