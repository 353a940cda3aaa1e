package config

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPathsFrom: the rules of the three resolvers Paths replaced.
func TestPathsFrom(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	uid := os.Getuid()
	for _, c := range []struct {
		name                    string
		getenv                  func(string) string
		config, data, run, user string
	}{
		{"PINCER_HOME", env("PINCER_HOME", "/ph", "XDG_CONFIG_HOME", "/x", "XDG_DATA_HOME", "/d", "XDG_RUNTIME_DIR", "/r", "HOME", "/h"),
			"/ph", "/ph/data", "/ph/run", "/ph/config.toml"},
		{"XDG", env("XDG_CONFIG_HOME", "/x", "XDG_DATA_HOME", "/d", "XDG_RUNTIME_DIR", "/r", "HOME", "/h"),
			"/x/pincer", "/d/pincer", "/r/pincer", "/x/pincer/config.toml"},
		{"HOME", env("HOME", "/h", "TMPDIR", "/t"),
			"/h/.config/pincer", "/h/.local/share/pincer", fmt.Sprintf("/t/pincer-%d", uid), "/h/.config/pincer/config.toml"},
	} {
		p := PathsFrom(c.getenv)
		if p.Config != c.config || p.Data != c.data || p.Run != c.run || p.UserConfig != c.user ||
			p.Store != c.data+"/store" || p.ToolResults != c.data+"/tool-results" || p.Trust != c.data+"/trusted-projects.json" || p.DataErr != nil {
			t.Errorf("%s: %+v", c.name, p)
		}
	}
	if p := PathsFrom(env()); p.Config != "" || p.UserConfig != "" || p.Data != "" || p.DataErr == nil {
		t.Errorf("no environment: %+v", p)
	}
}

// TestProjectHookDigestIsTheOldOne: the digest of the bytes read is the one the
// trust records already hold (path NUL length NUL bytes, or path NUL absent NUL,
// for .pincer/config.toml, .claude/settings.json, .claude/settings.local.json).
func TestProjectHookDigestIsTheOldOne(t *testing.T) {
	_, _, ws, read := readFixture(t)
	write(t, filepath.Join(ws, ".claude", "settings.json"), `{"hooks":{}}`)
	write(t, LocalSettingsPath(ws), "[permissions]\n") // not a hook file: not in the digest
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00absent\x00", ProjectPath(ws))
	data := []byte(`{"hooks":{}}`)
	fmt.Fprintf(h, "%s\x00%d\x00", filepath.Join(ws, ".claude", "settings.json"), len(data))
	h.Write(data)
	fmt.Fprintf(h, "%s\x00absent\x00", filepath.Join(ws, ".claude", "settings.local.json"))
	src, _ := read()
	if got, want := src.ProjectHookDigest(), hex.EncodeToString(h.Sum(nil)); got != want {
		t.Errorf("digest %s, want %s", got, want)
	}
	write(t, filepath.Join(ws, ".claude", "settings.json"), `{"hooks": {}}`)
	if again, _ := read(); again.ProjectHookDigest() == src.ProjectHookDigest() {
		t.Error("a changed hook file did not change the digest")
	}
}

// TestReadEverySource: the tables of each source, in source order, with the
// positions of their values.
func TestReadEverySource(t *testing.T) {
	home, userHome, ws, read := readFixture(t)
	write(t, filepath.Join(home, "config.toml"), "[permissions]\nallow = [\"Read\"]\n[[hooks.Stop]]\ncommand = \"a\"\n[keys]\nsend = \"ctrl+s\"\n")
	write(t, filepath.Join(userHome, ".claude", "settings.json"), `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "b"}]}]}, "permissions": {"allow": ["X"]}}`)
	write(t, ProjectPath(ws), "permissions.deny = [\n  'Bash(rm:*)',\n]\n")
	write(t, LocalSettingsPath(ws), "[permissions]\nask = [\"Bash(git push:*)\"]\n[[hooks.Stop]]\ncommand = \"never\"\n")
	write(t, filepath.Join(ws, ".claude", "settings.local.json"), "{\"permissions\": {\"allow\": [\n  \"Edit\"]}}")
	src, fatal := read()
	if len(fatal) != 0 {
		t.Fatal(fatal)
	}
	perms, _ := src.Permissions()
	var got []string
	for _, p := range perms {
		for _, v := range append(append(p.Allow, p.Ask...), p.Deny...) {
			got = append(got, fmt.Sprintf("%s@%s:%d:%d", v.Text, p.Name, v.Line, v.Column))
		}
	}
	want := "Read@user config:2:10 Bash(rm:*)@.pincer/config.toml:2:3 Bash(git push:*)@.pincer/settings.local.toml:2:8 Edit@.claude/settings.local.json:2:3"
	if strings.Join(got, " ") != want { // ~/.claude's permissions are not pincer's; settings.local.toml's hooks neither
		t.Errorf("permissions\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	hooks, _ := src.Hooks()
	if len(hooks) != 2 || hooks[0].Hooks[0].Command != "a" || hooks[0].Hooks[0].Line != 3 || hooks[1].Hooks[0].Command != "b" || hooks[1].Project {
		t.Errorf("hooks %+v", hooks)
	}
	keys, _ := src.Keys()
	if len(keys) != 1 || keys[0].Bindings["send"] != "ctrl+s" {
		t.Errorf("keys %+v", keys)
	}
}

// BenchmarkRead reads and decodes every source of a workspace with all six
// files present (the work of one pincer start).
func BenchmarkRead(b *testing.B) { benchRead(b, false) }

// BenchmarkReadAndLoad is BenchmarkRead plus the provider layers merged (Load).
func BenchmarkReadAndLoad(b *testing.B) { benchRead(b, true) }

func benchRead(b *testing.B, withProviders bool) {
	home, userHome, ws := b.TempDir(), b.TempDir(), b.TempDir()
	put := func(path, body string) {
		_ = os.MkdirAll(filepath.Dir(path), 0o755)
		_ = os.WriteFile(path, []byte(body), 0o644)
	}
	toml := "default_model = \"deepseek/deepseek-chat\"\n[providers.deepseek]\nmodels = [\"a\", \"b\"]\n[permissions]\nallow = [\"Read\", \"Bash(npm test:*)\"]\ndeny = [\"Bash(rm:*)\"]\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\ncommand = \"guard\"\n[sandbox]\nnetwork = false\n[keys]\nsend = \"enter\"\n"
	json := `{"permissions": {"allow": ["Edit"], "deny": ["Read(./.env)"]}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "g"}]}]}}`
	put(filepath.Join(home, "config.toml"), toml)
	put(filepath.Join(userHome, ".claude", "settings.json"), json)
	put(ProjectPath(ws), toml)
	put(LocalSettingsPath(ws), "[permissions]\nallow = [\"Bash(make)\"]\n")
	put(filepath.Join(ws, ".claude", "settings.json"), json)
	put(filepath.Join(ws, ".claude", "settings.local.json"), json)
	paths := PathsFrom(func(k string) string { return map[string]string{"PINCER_HOME": home, "HOME": userHome}[k] })
	b.ReportAllocs()
	for b.Loop() {
		src := Read(paths, ws)
		_, _ = src.Permissions()
		_, _ = src.Hooks()
		_, _ = src.Sandbox()
		if withProviders {
			_, _ = Load(Options{Getenv: func(string) string { return "" }, Sources: src})
		}
	}
}
