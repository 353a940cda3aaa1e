package config

import (
	"bytes"
	"fmt"
	"sort"
)

// KnownTopKeys are the top-level keys of pincer's config.toml, across every
// reader of it: this package's default_model and [providers], and the
// [permissions], [[hooks.EVENT]], [sandbox], [keys] and [mcp] tables other packages
// read. Any other key is a warning naming the file and line (a misspelled
// `permisions` would otherwise drop its rules without a word; the permission
// reader itself refuses unknown keys inside [permissions]).
var KnownTopKeys = []string{"default_model", "providers", "permissions", "hooks", "sandbox", "keys", "mcp"}

// knownProviderKeys are the fields of a [providers.NAME] table.
var knownProviderKeys = []string{"kind", "base_url", "model", "models", "requires_api_key", "api"}

// unknownKeys returns one *Error (with its line when found) for each key of the
// parsed file m that no reader of config.toml knows. Secret-looking keys are
// reported by sanitize instead.
func unknownKeys(path string, m map[string]any, data []byte) []error {
	var errs []error
	for _, k := range sortedMapKeys(m) {
		if oneOf(k, KnownTopKeys) || IsSecretKey(k) {
			continue
		}
		errs = append(errs, &Error{Path: path, Line: keyLine(data, k),
			Err: fmt.Errorf("unknown key %q, ignored (known: %v)", k, KnownTopKeys)})
	}
	provs, _ := m["providers"].(map[string]any)
	for _, name := range sortedMapKeys(provs) {
		fields, _ := provs[name].(map[string]any)
		for _, f := range sortedMapKeys(fields) {
			if oneOf(f, knownProviderKeys) || IsSecretKey(f) {
				continue
			}
			errs = append(errs, &Error{Path: path, Line: keyLine(data, f),
				Err: fmt.Errorf("providers.%s: unknown key %q, ignored (known: %v)", name, f, knownProviderKeys)})
		}
	}
	return errs
}

// keyLine returns the 1-based line of the first line of data that sets key
// (`key =`, `"key" =`, `a.key =`) or opens a table of that name (`[key]`,
// `[key.x]`, `[[key.x]]`); 0 when none does.
func keyLine(data []byte, key string) int {
	for i, line := range bytes.Split(data, []byte("\n")) {
		l := bytes.TrimSpace(line)
		if t := bytes.TrimLeft(l, "["); len(t) < len(l) {
			if bytes.HasPrefix(t, []byte(key+"]")) || bytes.HasPrefix(t, []byte(key+".")) {
				return i + 1
			}
			continue
		}
		if j := bytes.LastIndexByte(bytes.SplitN(l, []byte("="), 2)[0], '.'); j >= 0 && bytes.Contains(l, []byte("=")) {
			l = l[j+1:]
		}
		for _, p := range []string{key, `"` + key + `"`, "'" + key + "'"} {
			if rest, ok := bytes.CutPrefix(l, []byte(p)); ok {
				if r := bytes.TrimSpace(rest); len(r) > 0 && r[0] == '=' {
					return i + 1
				}
			}
		}
	}
	return 0
}

func sortedMapKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
