package config

import (
	"fmt"
	"sort"
)

// KnownTopKeys are the top-level keys of pincer's config.toml, across every
// reader of it: this package's default_model and [providers], and the
// [permissions], [[hooks.EVENT]], [sandbox], [keys], [mcp], [tools], [workbench], [agents] and [models."NAME"] tables other packages
// read. Any other key is a warning naming the file and line (a misspelled
// `permisions` would otherwise drop its rules without a word; the permission
// reader itself refuses unknown keys inside [permissions]).
var KnownTopKeys = []string{"default_model", "providers", "permissions", "hooks", "sandbox", "keys", "mcp", "tools", "workbench", "agents", "web", "models", "lsp", "checkpoints", "skills", "memory"}

// knownProviderKeys are the fields of a [providers.NAME] table.
var knownProviderKeys = []string{"kind", "base_url", "model", "models", "requires_api_key", "api"}

// unknownKeys returns one warning *FileError, at its line, for each key of the
// config.toml document d that no reader of config.toml knows. Secret-looking keys
// are reported by sanitize instead.
func unknownKeys(d *Document) []error {
	var errs []error
	for _, k := range sortedMapKeys(d.Tree) {
		if oneOf(k, KnownTopKeys) || IsSecretKey(k) {
			continue
		}
		line, _ := d.Line(k)
		errs = append(errs, &FileError{Path: d.Path, Line: line, Key: k, Warning: true,
			Err: fmt.Errorf("unknown key %q, ignored (known: %v)", k, KnownTopKeys)})
	}
	provs, _ := d.Tree["providers"].(map[string]any)
	for _, name := range sortedMapKeys(provs) {
		fields, _ := provs[name].(map[string]any)
		for _, f := range sortedMapKeys(fields) {
			if oneOf(f, knownProviderKeys) || IsSecretKey(f) {
				continue
			}
			key := "providers." + name + "." + f
			line, _ := d.Line(key)
			errs = append(errs, &FileError{Path: d.Path, Line: line, Key: key, Warning: true,
				Err: fmt.Errorf("providers.%s: unknown key %q, ignored (known: %v)", name, f, knownProviderKeys)})
		}
	}
	return errs
}

func sortedMapKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
