package permission

import (
	"pincer/core/config"

	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestLoadRulesFailsClosed: every broken form of every rule file is a fatal
// error naming FILE:LINE, so that no caller runs with fewer deny rules than
// the user wrote (issue 10, class 13).
func TestLoadRulesFailsClosed(t *testing.T) {
	type file struct{ rel, body string }
	cases := []struct {
		name string
		file file
		line int // the line the error must name; 0: any
	}{
		{"TOML typo in a value", file{"home:config.toml", "verbose = tru\n[permissions]\ndeny = [\"Bash(rm:*)\"]\n"}, 1},
		{"TOML unclosed string", file{".pincer/config.toml", "[permissions]\ndeny = [\"Bash(rm:*)]\n"}, 2},
		{"TOML unclosed array", file{".pincer/settings.local.toml", "[permissions]\ndeny = [\"Bash(rm:*)\"\nallow = []\n"}, 0},
		{"TOML duplicate key", file{".pincer/config.toml", "[permissions]\ndeny = [\"Bash(rm:*)\"]\ndeny = [\"Read\"]\n"}, 3},
		{"TOML duplicate table", file{"home:config.toml", "[permissions]\ndeny = [\"Bash(rm:*)\"]\n[permissions]\nask = []\n"}, 3},
		{"TOML deny as a string", file{".pincer/config.toml", "[permissions]\ndeny = \"Bash(rm:*)\"\n"}, 2},
		{"TOML permissions as a string", file{".pincer/config.toml", "permissions = \"deny all\"\n"}, 1},
		{"TOML deny of numbers", file{".pincer/config.toml", "[permissions]\ndeny = [1, 2]\n"}, 2},
		{"TOML misspelled deny", file{".pincer/config.toml", "[permissions]\ndney = [\"Bash(rm:*)\"]\n"}, 2},
		{"TOML dotted misspelled deny", file{".pincer/settings.local.toml", "permissions.Deny = [\"Bash(rm:*)\"]\n"}, 1},
		{"TOML bad deny rule", file{".pincer/config.toml", "[permissions]\ndeny = [\"Bash(rm:*\"]\n"}, 2},
		{"TOML bad ask rule", file{".pincer/config.toml", "[permissions]\nask = [\"(git push)\"]\n"}, 2},
		{"TOML binary garbage", file{".pincer/config.toml", "\x00\x01\x02[permissions"}, 0},
		{"JSON trailing comma", file{".claude/settings.json", "{\n  \"permissions\": {\n    \"deny\": [\"Bash(rm:*)\"],\n  }\n}\n"}, 4},
		{"JSON unclosed", file{".claude/settings.local.json", "{\"permissions\": {\"deny\": [\"Bash(rm:*)\"]"}, 0},
		{"JSON comment", file{".claude/settings.json", "{\n// no comments in JSON\n\"permissions\": {}}\n"}, 2},
		{"JSON deny as a string", file{".claude/settings.json", "{\"permissions\": {\"deny\": \"Bash(rm:*)\"}}"}, 1},
		{"JSON permissions as an array", file{".claude/settings.json", "{\"permissions\": [\"Bash(rm:*)\"]}"}, 1},
		{"JSON misspelled deny", file{".claude/settings.json", "{\n\"permissions\": {\n\"denny\": [\"Bash(rm:*)\"]}}"}, 3},
		{"JSON bad deny rule", file{".claude/settings.local.json", "{\"permissions\": {\"deny\": [\"Bash(rm:*\"]}}"}, 1},
		{"JSON only whitespace and a brace", file{".claude/settings.json", "\n{\n"}, 2},
	}
	place := regexp.MustCompile(`^[^:]+:(\d+)(:\d+)?: `)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home, ws := t.TempDir(), t.TempDir()
			path := filepath.Join(ws, c.file.rel)
			if rel, ok := strings.CutPrefix(c.file.rel, "home:"); ok {
				path = filepath.Join(home, rel)
			}
			write(t, path, c.file.body)
			_, errs := loadRules(ws, home)
			fatal := config.Fatal(errs)
			if len(fatal) == 0 {
				t.Fatalf("no fatal error (errs: %v)", errs)
			}
			msg := fatal[0].Error()
			if !strings.HasPrefix(msg, path+":") {
				t.Errorf("error does not start with the file: %q", msg)
			}
			m := place.FindStringSubmatch(strings.TrimPrefix(msg, filepath.Dir(path)))
			if m == nil {
				t.Errorf("error names no line: %q", msg)
			} else if c.line > 0 && m[1] != strconv.Itoa(c.line) {
				t.Errorf("error names line %s, want %d: %q", m[1], c.line, msg)
			}
		})
	}
}

// TestLoadRulesWarnings: problems that cannot lose a deny or ask rule stay
// warnings, and the files' other rules still load.
func TestLoadRulesWarnings(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	write(t, filepath.Join(ws, ".pincer", "config.toml"), "[permissions]\nallow = [\"Bash(ls\", \"Read\"]\ndeny = [\"Bash(rm:*)\"]\n")
	write(t, filepath.Join(ws, ".claude", "settings.json"), `{"permissions": {"defaultMode": "acceptEdits", "additionalDirectories": ["/x"], "allow": ["Glob"]}}`)
	rs, errs := loadRules(ws, home)
	if len(config.Fatal(errs)) != 0 || len(errs) != 1 {
		t.Fatalf("errs %v, fatal %v", errs, config.Fatal(errs))
	}
	if got := ruleSources(rs); !strings.Contains(got, "deny:Bash(rm:*)") || !strings.Contains(got, "allow:Read") || !strings.Contains(got, "allow:Glob") {
		t.Errorf("rules: %s", got)
	}
}
