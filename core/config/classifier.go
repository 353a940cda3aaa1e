package config

import (
	"strings"
	"time"
)

// classifierKeys are the keys of a [permissions.classifier] table.
var classifierKeys = []string{"model", "timeout"}

// ClassifierSettings are the [permissions.classifier] settings of the
// stage-two command classifier (core/permission/classify). A zero Model means
// no classifier.
type ClassifierSettings struct {
	// Model is the model that classifies the shell commands no rule decided,
	// as --model takes it ("openai/gpt-4.1-mini").
	Model string
	// Timeout bounds one classification (0: the classifier's default); a
	// timeout is an "ask".
	Timeout time.Duration
	Path    string // the file that set Model
}

// Classifier reads [permissions.classifier] of the user's config.toml. A
// project file's is a warning and not applied: a repository cannot choose the
// model whose "allow" runs commands in auto mode. A value of the wrong type or
// an unknown key is a warning and is left out (no classifier is the safe side:
// every undecided command asks).
func (s *Sources) Classifier() (ClassifierSettings, []error) {
	var out ClassifierSettings
	var errs []error
	for _, d := range s.docs(ProjectConfig, LocalSettings) {
		if perms, ok := d.Tree["permissions"].(map[string]any); ok {
			if _, ok := perms["classifier"]; ok {
				errs = append(errs, d.errorAt("permissions.classifier", true,
					"[permissions.classifier] in a project file is not applied: a repository cannot choose the model that allows commands; set it in your own config.toml"))
			}
		}
	}
	for _, d := range s.docs(UserConfig) {
		perms, _ := d.Tree["permissions"].(map[string]any)
		raw, ok := perms["classifier"]
		if !ok {
			continue
		}
		m, ok := raw.(map[string]any)
		if !ok {
			errs = append(errs, d.errorAt("permissions.classifier", true, "[permissions.classifier] not applied: want a table, not %s", kindOf(raw)))
			continue
		}
		for _, k := range sortedMapKeys(m) {
			key := "permissions.classifier." + k
			switch k {
			case "model":
				v, ok := m[k].(string)
				if !ok || strings.TrimSpace(v) == "" {
					errs = append(errs, d.errorAt(key, true, "[permissions.classifier] model: want a model name (\"provider/model\"), not %v", m[k]))
					continue
				}
				out.Model, out.Path = strings.TrimSpace(v), d.Path
			case "timeout":
				v, ok := m[k].(string)
				dur, err := time.ParseDuration(v)
				if !ok || err != nil || dur <= 0 {
					errs = append(errs, d.errorAt(key, true, "[permissions.classifier] timeout: want a duration such as \"10s\", not %v", m[k]))
					continue
				}
				out.Timeout = dur
			default:
				errs = append(errs, d.errorAt(key, true, "[permissions.classifier] unknown key %q, ignored (known: %s)", k, strings.Join(classifierKeys, ", ")))
			}
		}
	}
	return out, errs
}
