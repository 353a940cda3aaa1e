package permission

import (
	"pincer/core/config"

	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ruleSources renders a RuleSet as "behavior:rule@source" strings.
func ruleSources(rs RuleSet) string {
	var out []string
	for _, l := range []struct {
		b     Behavior
		rules []Rule
	}{{Allow, rs.Allow}, {Ask, rs.Ask}, {Deny, rs.Deny}} {
		for _, r := range l.rules {
			out = append(out, fmt.Sprintf("%s:%s@%s", l.b, r, r.Source))
		}
	}
	return strings.Join(out, " ")
}

func TestLoadRulesEverySource(t *testing.T) {
	home := t.TempDir()
	wsDir := t.TempDir()
	write(t, filepath.Join(home, "config.toml"), `
model = "openai/gpt-x"   # other settings are not ours

[permissions]
allow = ["Read", "Bash(npm run test:*)"]
deny = ["Read(~/.ssh/**)"]
`)
	write(t, filepath.Join(wsDir, ".pincer", "config.toml"), `
[permissions]
ask = ['Bash(git push:*)']
`)
	write(t, filepath.Join(wsDir, ".pincer", "settings.local.toml"), `
permissions.allow = ["Bash(make)"]
`)
	write(t, filepath.Join(wsDir, ".claude", "settings.json"), `{
  "model": "opus",
  "permissions": {
    "allow": ["WebFetch(domain:example.com)"],
    "deny": ["Read(./.env)"],
    "defaultMode": "acceptEdits"
  },
  "hooks": {}
}`)
	write(t, filepath.Join(wsDir, ".claude", "settings.local.json"), `{"permissions": {"ask": ["mcp__github"]}}`)
	rs, errs := loadRules(wsDir, home)
	if len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
	want := "allow:Read@user config allow:Bash(npm run test:*)@user config allow:Bash(make)@.pincer/settings.local.toml " +
		"allow:WebFetch(domain:example.com)@.claude/settings.json " +
		"ask:Bash(git push:*)@.pincer/config.toml ask:mcp__github@.claude/settings.local.json " +
		"deny:Read(~/.ssh/**)@user config deny:Read(./.env)@.claude/settings.json"
	if got := ruleSources(rs); got != want {
		t.Fatalf("rules:\n got %s\nwant %s", got, want)
	}
}

func TestLoadRulesUserConfigLookup(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	write(t, filepath.Join(xdg, "pincer", "config.toml"), "[permissions]\nallow = [\"Glob\"]\n")
	rs, errs := loadRules("", "")
	if len(errs) != 0 || ruleSources(rs) != "allow:Glob@user config" {
		t.Fatalf("XDG: %s, %v", ruleSources(rs), errs)
	}
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("HOME", home)
	write(t, filepath.Join(home, ".config", "pincer", "config.toml"), "[permissions]\ndeny = [\"Bash\"]\n")
	rs, errs = loadRules("", "")
	if len(errs) != 0 || ruleSources(rs) != "deny:Bash@user config" {
		t.Fatalf("~/.config: %s, %v", ruleSources(rs), errs)
	}
}

func TestLoadRulesBadFiles(t *testing.T) {
	home := t.TempDir()
	wsDir := t.TempDir()
	userPath := filepath.Join(home, "config.toml")
	projPath := filepath.Join(wsDir, ".pincer", "config.toml")
	localPath := filepath.Join(wsDir, ".pincer", "settings.local.toml")
	claudePath := filepath.Join(wsDir, ".claude", "settings.json")
	claudeLocal := filepath.Join(wsDir, ".claude", "settings.local.json")
	write(t, userPath, "[permissions]\nallow = [\"Read\",\n  \"Bash(npm test\",   # unclosed\n  'WebFetch(nope)',\n  \"Edit\"]\n")
	write(t, projPath, "[permissions]\nallow = [\"Glob\"\ndeny = [\"Bash\"]\n") // TOML syntax error on line 3
	write(t, localPath, "[permissions]\nask = [\"Grep\"]\n")
	write(t, claudePath, "{\n  \"permissions\": {\n    \"deny\": [\"Read(./.env)\", \"mcp__x__y(z)\"]\n  }\n}\n")
	write(t, claudeLocal, "{\n  \"permissions\": {\n    \"allow\": [\"Read\",]\n  }\n}\n") // JSON syntax error on line 3
	rs, errs := loadRules(wsDir, home)
	want := []string{
		userPath + ":3:3: permissions.allow: rule \"Bash(npm test\": missing the closing parenthesis",
		userPath + ":4:3: permissions.allow: rule \"WebFetch(nope)\"",
		projPath + ":3:",
		claudePath + ":3:30: permissions.deny: rule \"mcp__x__y(z)\": MCP rules take no specifier",
		claudeLocal + ":3:",
	}
	if len(errs) != len(want) {
		t.Fatalf("errors = %v, want %d", errs, len(want))
	}
	for i, w := range want {
		var le *config.FileError
		if !strings.HasPrefix(errs[i].Error(), w) || !errors.As(errs[i], &le) {
			t.Errorf("error %d = %q, want it to start with %q", i, errs[i], w)
		}
	}
	// Everything else still loaded: good rules of the bad files and the other files.
	if got, want := ruleSources(rs), "allow:Read@user config allow:Edit@user config ask:Grep@.pincer/settings.local.toml deny:Read(./.env)@.claude/settings.json"; got != want {
		t.Fatalf("rules:\n got %s\nwant %s", got, want)
	}
}

func TestLoadRulesUnreadable(t *testing.T) {
	wsDir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(wsDir, ".pincer", "config.toml"), 0o755); err != nil { // a directory
		t.Fatal(err)
	}
	_, errs := loadRules(wsDir, t.TempDir())
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), ".pincer/config.toml") {
		t.Fatalf("errs = %v", errs)
	}
}

func TestSaveLocalRule(t *testing.T) {
	wsDir := t.TempDir()
	path := config.LocalSettingsPath(wsDir)
	must := func(s string) Rule {
		r, err := ParseRule(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, r := range []string{"Bash(npm test)", `Bash(npm run 'x\*')`, "Bash(npm test)"} {
		if err := SaveLocalRule(wsDir, Allow, must(r)); err != nil {
			t.Fatal(err)
		}
	}
	if err := SaveLocalRule(wsDir, Deny, Rule{Tool: "Edit", Specifier: "//w/x.go", Source: "ignored"}); err != nil {
		t.Fatal(err)
	}
	rs, errs := loadRules(wsDir, t.TempDir())
	want := `allow:Bash(npm test)@.pincer/settings.local.toml allow:Bash(npm run 'x\*')@.pincer/settings.local.toml deny:Edit(//w/x.go)@.pincer/settings.local.toml`
	if len(errs) != 0 || ruleSources(rs) != want {
		t.Fatalf("after saving: %s, %v\nwant %s", ruleSources(rs), errs, want)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("stat = %v, %v; want mode 0600", st, err)
	}
	ignore, err := os.ReadFile(filepath.Join(wsDir, ".pincer", ".gitignore"))
	if err != nil || string(ignore) != "settings.local.toml\nsettings.local.toml.lock\n" {
		t.Fatalf(".gitignore = %q, %v", ignore, err)
	}
	entries, _ := os.ReadDir(filepath.Join(wsDir, ".pincer"))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
	if err := SaveLocalRule(wsDir, "maybe", must("Read")); err == nil {
		t.Error("unknown behavior accepted")
	}
	if err := SaveLocalRule(wsDir, Allow, Rule{Tool: "Bash("}); err == nil {
		t.Error("bad rule saved")
	}
}

func TestSaveLocalRuleKeepsContent(t *testing.T) {
	wsDir := t.TempDir()
	path := config.LocalSettingsPath(wsDir)
	write(t, path, "theme = \"dark\"\n\n[permissions]\nallow = [\"Read\"]\ndeny = [\"Bash(rm:*)\"]\n\n[other]\nn = 3\n")
	write(t, filepath.Join(wsDir, ".pincer", ".gitignore"), "cache/") // no final newline
	if err := SaveLocalRule(wsDir, Allow, Rule{Tool: "Bash", Specifier: "make"}); err != nil {
		t.Fatal(err)
	}
	rs, errs := loadRules(wsDir, t.TempDir())
	want := "allow:Read@.pincer/settings.local.toml allow:Bash(make)@.pincer/settings.local.toml deny:Bash(rm:*)@.pincer/settings.local.toml"
	warned := 0 // theme and [other] are kept, and each is a warning: the file holds only [permissions]
	for _, e := range errs {
		if fe, ok := e.(*config.FileError); ok && fe.Warning {
			warned++
		}
	}
	if warned != len(errs) || warned != 2 || ruleSources(rs) != want {
		t.Fatalf("rules = %s, %v", ruleSources(rs), errs)
	}
	data, _ := os.ReadFile(path)
	for _, s := range []string{"theme = \"dark\"\n\n[permissions]", "[other]", "n = 3", `allow = ["Read", "Bash(make)"]`} {
		if !strings.Contains(string(data), s) {
			t.Errorf("lost %q:\n%s", s, data)
		}
	}
	ignore, _ := os.ReadFile(filepath.Join(wsDir, ".pincer", ".gitignore"))
	if string(ignore) != "cache/\nsettings.local.toml\nsettings.local.toml.lock\n" { // the file and its Edit lock
		t.Errorf(".gitignore = %q", ignore)
	}
	// A file that is not TOML is left alone, and the error names it.
	write(t, path, "allow = [\n")
	err := SaveLocalRule(wsDir, Allow, Rule{Tool: "Read"})
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("err = %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "allow = [\n" {
		t.Fatalf("bad file rewritten: %q", data)
	}
}
