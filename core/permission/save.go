package permission

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"pincer/core/config"
)

// SaveLocalRule adds r to the behavior list of <workspace>/.pincer/settings.local.toml
// — where "always allow" answers land, as Claude Code's .claude/settings.local.json
// — and makes sure that file is git-ignored (a line in <workspace>/.pincer/.gitignore).
//
// The file's other content is kept (as values: TOML comments do not survive the
// rewrite), a rule already present (same canonical form) is not added twice, and
// the write is atomic: a temporary file in the same directory, mode 0600, renamed
// over the old one, under the file's lock (config.Edit), so concurrent saves all
// land. An existing file that is not valid TOML is left alone and
// reported.
func SaveLocalRule(workspace string, behavior Behavior, r Rule) error {
	if behavior != Allow && behavior != Ask && behavior != Deny {
		return fmt.Errorf("save rule: unknown behavior %q", behavior)
	}
	canon, err := ParseRule(r.String())
	if err != nil {
		return fmt.Errorf("save rule: %w", err)
	}
	path := config.LocalSettingsPath(workspace)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("save rule: %w", err)
	}
	err = config.Edit(path, 0o600, func(data []byte) ([]byte, error) {
		doc := map[string]any{}
		if err := toml.Unmarshal(data, &doc); err != nil {
			return nil, config.TOMLError(path, err)
		}
		added, err := addRule(doc, string(behavior), canon.String())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if !added {
			return data, nil
		}
		return config.PatchTOML(data, doc)
	})
	if err != nil {
		return fmt.Errorf("save rule: %w", err)
	}
	for _, name := range []string{filepath.Base(path), filepath.Base(path) + ".lock"} {
		if err := ensureIgnored(filepath.Dir(path), name); err != nil {
			return fmt.Errorf("save rule: %w", err)
		}
	}
	return nil
}

// addRule appends rule to doc's permissions.<list> unless a rule of the same
// canonical form is there; it reports whether doc changed.
func addRule(doc map[string]any, list, rule string) (bool, error) {
	perms, ok := doc["permissions"].(map[string]any)
	if !ok {
		if doc["permissions"] != nil {
			return false, errors.New("permissions is not a table")
		}
		perms = map[string]any{}
		doc["permissions"] = perms
	}
	items, ok := perms[list].([]any)
	if !ok && perms[list] != nil {
		return false, fmt.Errorf("permissions.%s is not an array", list)
	}
	for _, it := range items {
		if s, ok := it.(string); ok {
			if have, err := ParseRule(s); err == nil && have.String() == rule {
				return false, nil
			}
		}
	}
	perms[list] = append(items, rule)
	return true, nil
}

// ensureIgnored makes sure dir/.gitignore has a line ignoring name.
func ensureIgnored(dir, name string) error {
	path := filepath.Join(dir, ".gitignore")
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if l := strings.TrimSpace(line); l == name || l == "/"+name {
			return nil
		}
	}
	var add bytes.Buffer
	if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
		add.WriteByte('\n')
	}
	add.WriteString(name + "\n")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(add.Bytes()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
