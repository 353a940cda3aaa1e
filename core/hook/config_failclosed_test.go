package hook

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLoadFailsClosed: a hook file that does not parse, or a hook definition
// that is wrong, is a fatal error naming the file (and the line where the
// parser knows it): a dropped PreToolUse hook may be the user's guard.
func TestLoadFailsClosed(t *testing.T) {
	cases := []struct {
		name, rel, body string
		line            bool   // the message must name a line (every case does now: issue 12, Found 13)
		say             string // and, when set, say this
	}{
		{"TOML syntax", ".pincer/config.toml", "[[hooks.PreToolUse]]\ncommand = \"guard.sh\nmatcher = \"Bash\"\n", true, ""},
		{"TOML typo elsewhere in the file", ".pincer/config.toml", "verbose = tru\n[[hooks.PreToolUse]]\ncommand = \"guard.sh\"\n", true, ""},
		{"TOML misspelled event", ".pincer/config.toml", "[[hooks.PreTooluse]]\ncommand = \"guard.sh\"\n", true, ""},
		{"TOML misspelled command key", ".pincer/config.toml", "[[hooks.PreToolUse]]\ncomand = \"guard.sh\"\n", true, `:2:1: hooks.PreToolUse[0]: unknown key "comand"`},
		{"TOML hooks as a string", ".pincer/config.toml", "hooks = \"guard.sh\"\n", true, ""},
		{"TOML timeout as a string", ".pincer/config.toml", "[[hooks.PreToolUse]]\ncommand = \"guard.sh\"\ntimeout = \"ten\"\n", true, ""},
		{"TOML bad matcher", ".pincer/config.toml", "[[hooks.PreToolUse]]\nmatcher = \"(\"\ncommand = \"guard.sh\"\n", true, ""},
		{"JSON trailing comma", ".claude/settings.json", "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"guard.sh\"},]}]}}", true, ""},
		{"JSON unclosed", ".claude/settings.local.json", "{\"hooks\": {\"PreToolUse\": [", true, ""},
		{"JSON hooks as an array", ".claude/settings.json", "{\"hooks\": [\"guard.sh\"]}", true, ""},
		{"JSON empty command", ".claude/settings.json", "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"\"}]}]}}", true, ":1: hooks.PreToolUse[0].hooks[0]: command is empty"},
		{"JSON negative timeout", ".claude/settings.json", "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"g\", \"timeout\": -1}]}]}}", true, ""},
	}
	place := regexp.MustCompile(`:\d+: `)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			proj := t.TempDir()
			path := filepath.Join(proj, c.rel)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(c.body), 0o644); err != nil {
				t.Fatal(err)
			}
			_, errs := LoadSources(proj, []Source{
				{filepath.Join(proj, ".pincer", "config.toml"), FormatTOML, true},
				{filepath.Join(proj, ".claude", "settings.json"), FormatClaude, true},
				{filepath.Join(proj, ".claude", "settings.local.json"), FormatClaude, true},
			})
			fatal := Fatal(errs)
			if len(fatal) == 0 {
				t.Fatalf("no fatal error (errs %v)", errs)
			}
			msg := fatal[0].Error()
			if !strings.HasPrefix(msg, path) {
				t.Errorf("error does not name the file: %q", msg)
			}
			if c.line && !place.MatchString(strings.TrimPrefix(msg, path)) {
				t.Errorf("error names no line: %q", msg)
			}
			if c.say != "" && !strings.Contains(msg, c.say) {
				t.Errorf("error %q does not say %q", msg, c.say)
			}
		})
	}
}

// TestLoadWarningsOnly: an unsupported Claude Code hook type and an empty file
// are not fatal.
func TestLoadWarningsOnly(t *testing.T) {
	proj := t.TempDir()
	_ = os.MkdirAll(filepath.Join(proj, ".claude"), 0o755)
	_ = os.WriteFile(filepath.Join(proj, ".claude", "settings.json"), []byte(`{"hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": "x"}]}]}}`), 0o644)
	_ = os.WriteFile(filepath.Join(proj, ".claude", "settings.local.json"), []byte("\n"), 0o644)
	_, errs := LoadSources(proj, []Source{
		{filepath.Join(proj, ".claude", "settings.json"), FormatClaude, true},
		{filepath.Join(proj, ".claude", "settings.local.json"), FormatClaude, true},
	})
	if len(errs) != 1 || len(Fatal(errs)) != 0 {
		t.Fatalf("errs %v, fatal %v", errs, Fatal(errs))
	}
}
