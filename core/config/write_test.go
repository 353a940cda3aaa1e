package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUpdateWritesUserFileAloneAtomically(t *testing.T) {
	f := newFixture(t, `# a comment
[permissions]
allow = ["Bash(npm test:*)"]
[[hooks.PreToolUse]]
matcher = "Bash"
command = "echo hi"
[mcp."my.server"]
x = 1
`, "")
	f.env["PINCER_MODEL"] = "env/should-not-be-saved"
	path := filepath.Join(f.home, "config.toml")
	err := Update(path, func(u *UserFile) error {
		if u.HasProvider("deepseek") {
			t.Error("HasProvider before any write")
		}
		if err := u.SetProvider("deepseek", ProviderSettings{BaseURL: "https://api.deepseek.com/v1",
			Model: "deepseek-chat", Models: []string{"deepseek-chat", "deepseek-chat", "x"}, RequiresAPIKey: true}); err != nil {
			return err
		}
		return u.SetDefaultModel("deepseek/deepseek-chat")
	})
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v %v", st.Mode(), err)
	}
	entries, _ := os.ReadDir(f.home)
	if len(entries) != 2 || entries[1].Name() != "config.toml.lock" { // the file and Edit's lock
		t.Errorf("temporary files left: %v", entries)
	}
	data, _ := os.ReadFile(path)
	s := string(data)
	for _, want := range []string{"[permissions]", "Bash(npm test:*)", "[[hooks.PreToolUse]]", "echo hi", "'my.server'", "default_model = 'deepseek/deepseek-chat'", "kind = 'builtin'"} {
		if !strings.Contains(s, want) {
			t.Errorf("saved file lacks %q:\n%s", want, s)
		}
	}
	for _, bad := range []string{"env/should-not-be-saved", "api.openai.com", "gpt-4.1"} {
		if strings.Contains(s, bad) {
			t.Errorf("saved file holds a value of another layer (%q):\n%s", bad, s)
		}
	}
	cfg, warns := f.load(t, nil)
	if len(warns) != 0 {
		t.Fatal(warns)
	}
	if ds := cfg.Providers["deepseek"]; !strings.Contains(ds.Source, "config.toml") || ds.Model != "deepseek-chat" || !ds.HasModel("x") {
		t.Errorf("reloaded %+v", ds)
	}
	u, err := OpenUserFile(path)
	if err != nil || !u.HasProvider("deepseek") || len(u.Models("deepseek")) != 2 {
		t.Errorf("reopened: %v %v", err, u.Models("deepseek"))
	}
}

func TestWritesRefuseKeys(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	for _, key := range []string{"providers.openai.api_key", "providers.x.apiKey", "github_token", "providers.y.client_secret", "password"} {
		err := Update(path, func(u *UserFile) error { return u.Set(key, "sk-should-never-land") })
		if !errors.Is(err, errSecretKey) {
			t.Errorf("Set(%s): %v", key, err)
		}
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused change wrote the file: %v", err)
	}
	// A key the user typed into the file by hand blocks saving until it is moved.
	write(t, path, "[providers.openai]\napi_key = \"sk-hand\"\n")
	err := Update(path, func(u *UserFile) error { return u.SetDefaultModel("openai/gpt-4o") })
	if !errors.Is(err, errSecretKey) || !strings.Contains(err.Error(), "providers.openai.api_key") || strings.Contains(err.Error(), "sk-hand") {
		t.Errorf("saving over a hand-written key: %v", err)
	}
	// max_tokens and requires_api_key are settings, not secrets.
	if IsSecretKey("providers.x.max_tokens") || IsSecretKey("providers.x.requires_api_key") {
		t.Error("a count or a flag taken for a secret")
	}
}

func TestUpdateLeavesBrokenFileAlone(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	write(t, path, "[providers\n")
	err := Update(path, func(u *UserFile) error { return u.SetDefaultModel("a/b") })
	var e *Error
	if !errors.As(err, &e) || e.Line != 1 {
		t.Fatalf("broken file: %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "[providers\n" {
		t.Errorf("broken file rewritten: %q", data)
	}
	changeErr := errors.New("cancelled")
	if err := Update(filepath.Join(dir, "new.toml"), func(*UserFile) error { return changeErr }); err != changeErr {
		t.Errorf("failed change: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.toml")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a failed change wrote the file")
	}
}

func TestSetProviderValidates(t *testing.T) {
	u, _ := OpenUserFile(filepath.Join(t.TempDir(), "c.toml"))
	if err := u.SetProvider("bad/name", ProviderSettings{BaseURL: "http://x"}); err == nil {
		t.Error("bad name accepted")
	}
	if err := u.SetProvider("ok", ProviderSettings{BaseURL: "ftp://x"}); err == nil {
		t.Error("bad URL accepted")
	}
	if err := u.SetProvider("ok", ProviderSettings{BaseURL: "http://x", API: "soap"}); err == nil {
		t.Error("bad API accepted")
	}
	if err := u.AddModels("ok", "a", "b"); err != nil || len(u.Models("ok")) != 2 {
		t.Errorf("AddModels: %v %v", err, u.Models("ok"))
	}
}

// TestAddModelsKeepsImpliedModels: a provider whose model the file names
// only in default_model or its `model` keeps it when a list is first written
// (new user r22: `pincer model add-model local fake-2` dropped fake-1).
func TestAddModelsKeepsImpliedModels(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"default_model = \"local/fake-1\"\n[providers.local]\nbase_url = \"http://127.0.0.1:1/v1\"\n", "fake-1 fake-2"},
		{"[providers.local]\nbase_url = \"http://127.0.0.1:1/v1\"\nmodel = \"m0\"\n", "m0 fake-2"},
		{"default_model = \"other/x\"\n[providers.local]\nbase_url = \"http://127.0.0.1:1/v1\"\nmodels = [\"a\"]\n", "a fake-2"},
	} {
		path := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(path, []byte(c.file), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := Update(path, func(u *UserFile) error { return u.AddModels("local", "fake-2") }); err != nil {
			t.Fatal(err)
		}
		u, err := OpenUserFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(u.Models("local"), " "); got != c.want {
			t.Errorf("%q: models after add-model = %q, want %q", c.file, got, c.want)
		}
	}
}
