package config

import (
	"strings"
)

// modelKeys are the keys of a [models."NAME"] table: one table, one reader.
var modelKeys = []string{"protocol", "edit_tool", "context_window"}

// Protocols a [models."NAME"] table may choose.
const (
	ProtocolTools = "tools" // function calling: the tools are offered on the wire (the default)
	ProtocolText  = "text"  // the text protocol: `command: <shell>` / `text: <answer>` lines
)

// ModelSettings are the settings of one [models."NAME"] table. A zero field was
// not set.
type ModelSettings struct {
	// Protocol is how pincer talks to the model: ProtocolTools or
	// ProtocolText (the model answers with `command:` / `text:` lines and
	// its commands run as Bash calls).
	Protocol string
	// EditTool is the model's file-editing tools: EditToolApplyPatch (Codex's
	// apply_patch instead of Edit, MultiEdit and Write) or EditToolEdit
	// (Claude Code's Edit, MultiEdit and Write); "" leaves it to the catalog.
	EditTool string
	// ContextWindow is the model's context window in tokens, for a model the
	// catalog does not know (a local or custom one) or to override the
	// catalog's; 0 leaves it to the catalog.
	ContextWindow int64
}

// Edit tool sets a [models."NAME"] edit_tool may choose.
const (
	EditToolApplyPatch = "apply_patch" // Codex's apply_patch (GPT-5, codex models by default)
	EditToolEdit       = "edit"        // Claude Code's Edit, MultiEdit and Write
)

// Models reads the [models."NAME"] tables of the user's config.toml then the
// project's (a later file's value wins for the same model), keyed by NAME as
// written: the model as shown ("ollama/llama3.2") or its bare id ("llama3.2").
// A value of the wrong type, an unknown protocol or an unknown key is a
// warning and is left out.
func (s *Sources) Models() (map[string]ModelSettings, []error) {
	out := map[string]ModelSettings{}
	var errs []error
	for _, d := range s.docs(UserConfig, ProjectConfig) {
		raw, ok := d.Tree["models"]
		if !ok {
			continue
		}
		tab, ok := raw.(map[string]any)
		if !ok {
			errs = append(errs, d.errorAt("models", true, "[models] not applied: models must be a table of tables ([models.\"NAME\"]), not %s", kindOf(raw)))
			continue
		}
		for _, name := range sortedMapKeys(tab) {
			m, ok := tab[name].(map[string]any)
			if !ok {
				errs = append(errs, d.errorAt("models."+name, true, "[models.%q] not applied: want a table, not %s", name, kindOf(tab[name])))
				continue
			}
			ms := out[name]
			for _, k := range sortedMapKeys(m) {
				key := "models." + name + "." + k
				switch k {
				case "protocol":
					v, ok := m[k].(string)
					if !ok || (v != ProtocolTools && v != ProtocolText) {
						errs = append(errs, d.errorAt(key, true, "[models.%q] protocol: want %q or %q, not %v", name, ProtocolTools, ProtocolText, m[k]))
						continue
					}
					ms.Protocol = v
				case "edit_tool":
					v, ok := m[k].(string)
					if !ok || (v != EditToolApplyPatch && v != EditToolEdit) {
						errs = append(errs, d.errorAt(key, true, "[models.%q] edit_tool: want %q or %q, not %v", name, EditToolApplyPatch, EditToolEdit, m[k]))
						continue
					}
					ms.EditTool = v
				case "context_window":
					v, ok := m[k].(int64)
					if !ok || v <= 0 {
						errs = append(errs, d.errorAt(key, true, "[models.%q] context_window: want a positive whole number of tokens (such as 8192), not %v", name, m[k]))
						continue
					}
					ms.ContextWindow = v
				default:
					errs = append(errs, d.errorAt(key, true, "[models.%q] unknown key %q, ignored (known: %s)", name, k, strings.Join(modelKeys, ", ")))
				}
			}
			out[name] = ms
		}
	}
	return out, errs
}

// ModelSetting returns the settings for the model shown as name
// ("provider/model"): its own table, else the table of its bare id (the part
// after the first "/"), else the zero value.
func ModelSetting(tables map[string]ModelSettings, name string) ModelSettings {
	if ms, ok := tables[name]; ok {
		return ms
	}
	if _, id, ok := strings.Cut(name, "/"); ok {
		if ms, ok := tables[id]; ok {
			return ms
		}
	}
	return ModelSettings{}
}
