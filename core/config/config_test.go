package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fixture is a PINCER_HOME and a workspace with optional files.
type fixture struct {
	home, work string
	env        map[string]string
}

func newFixture(t *testing.T, user, project string) *fixture {
	t.Helper()
	f := &fixture{home: t.TempDir(), work: t.TempDir()}
	f.env = map[string]string{"PINCER_HOME": f.home}
	if user != "" {
		write(t, filepath.Join(f.home, "config.toml"), user)
	}
	if project != "" {
		write(t, ProjectPath(f.work), project)
	}
	return f
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) load(t *testing.T, flags map[string]any) (*Config, []error) {
	t.Helper()
	getenv := func(k string) string { return f.env[k] }
	environ := func() []string {
		var out []string
		for k, v := range f.env {
			out = append(out, k+"="+v)
		}
		return out
	}
	return Load(Options{Getenv: getenv, Environ: environ, ProjectDir: f.work, Flags: flags})
}

func TestLayering(t *testing.T) {
	user := `default_model = "deepseek/deepseek-chat"
[providers.deepseek]
model = "user-model"
models = ["user-extra"]
[providers.vllm]
base_url = "http://127.0.0.1:8000/v1"
model = "qwen"
`
	project := `default_model = "openai/gpt-4o"
[providers.deepseek]
model = "project-model"
`
	cases := []struct {
		name          string
		user, project string
		env           map[string]string
		flags         map[string]any
		wantDefault   string
		wantSource    string
		wantDSModel   string
	}{
		{"defaults", "", "", nil, nil, "", "", "deepseek-chat"},
		{"user", user, "", nil, nil, "deepseek/deepseek-chat", "config.toml", "user-model"},
		{"project over user", user, project, nil, nil, "openai/gpt-4o", ".pincer", "project-model"},
		{"env over project", user, project, map[string]string{"PINCER_MODEL": "anthropic/claude-opus-4",
			"PINCER_PROVIDERS__DEEPSEEK__MODEL": "env-model"}, nil, "anthropic/claude-opus-4", SourceEnvironment, "env-model"},
		{"flags over env", user, project, map[string]string{"PINCER_MODEL": "anthropic/claude-opus-4"},
			map[string]any{"default_model": "ollama/qwen", "providers.deepseek.model": "flag-model"}, "ollama/qwen", SourceFlags, "flag-model"},
		{"PINCER_MODEL beats PINCER_DEFAULT_MODEL", "", "", map[string]string{"PINCER_MODEL": "a/b", "PINCER_DEFAULT_MODEL": "c/d"}, nil, "a/b", SourceEnvironment, "deepseek-chat"},
		{"PINCER_DEFAULT_MODEL alone", "", "", map[string]string{"PINCER_DEFAULT_MODEL": "c/d"}, nil, "c/d", SourceEnvironment, "deepseek-chat"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, c.user, c.project)
			for k, v := range c.env {
				f.env[k] = v
			}
			cfg, warns := f.load(t, c.flags)
			if len(warns) > 0 {
				t.Fatalf("warnings: %v", warns)
			}
			if cfg.DefaultModel != c.wantDefault || !strings.Contains(cfg.DefaultSource, c.wantSource) {
				t.Errorf("default %q from %q, want %q from %q", cfg.DefaultModel, cfg.DefaultSource, c.wantDefault, c.wantSource)
			}
			ds := cfg.Providers["deepseek"]
			if ds.Model != c.wantDSModel || ds.BaseURL != "https://api.deepseek.com/v1" || !ds.RequiresAPIKey || ds.Kind != KindBuiltin {
				t.Errorf("deepseek %+v", ds)
			}
			for _, m := range []string{"deepseek-chat", "deepseek-reasoner", c.wantDSModel} {
				if !ds.HasModel(m) {
					t.Errorf("deepseek models %v lack %s", ds.Models, m)
				}
			}
			if c.user != "" {
				if !ds.HasModel("user-extra") {
					t.Errorf("user-added model missing: %v", ds.Models)
				}
				v := cfg.Providers["vllm"]
				if v.Kind != KindCustom || v.API != APIChat || v.RequiresAPIKey || v.BaseURL != "http://127.0.0.1:8000/v1" || v.Model != "qwen" {
					t.Errorf("custom provider %+v", v)
				}
				if len(v.Missing(false)) != 0 {
					t.Errorf("vllm not ready: %v", v.Missing(false))
				}
			}
		})
	}
}

func TestBadLinesAreWarningsAndOtherLayersApply(t *testing.T) {
	user := "default_model = \"openai/gpt-4o\"\n[providers.deepseek]\nmodel = \n"
	project := "[providers.deepseek]\nmodels = [\"p1\"]\n"
	f := newFixture(t, user, project)
	cfg, warns := f.load(t, nil)
	if len(warns) != 1 {
		t.Fatalf("warnings %v", warns)
	}
	var e *Error
	if !errors.As(warns[0], &e) || e.Line != 3 || e.Path != filepath.Join(f.home, "config.toml") {
		t.Fatalf("warning %#v", warns[0])
	}
	if msg := warns[0].Error(); !strings.HasPrefix(msg, filepath.Join(f.home, "config.toml")+":3:") {
		t.Errorf("message %q does not start with file:line", msg)
	}
	if cfg.DefaultModel != "" || !cfg.Providers["deepseek"].HasModel("p1") {
		t.Errorf("project layer lost: %+v", cfg.Providers["deepseek"])
	}
}

func TestBadValuesAndRefusedKeys(t *testing.T) {
	user := `default_model = "no-slash"
api_key = "sk-top"
[providers.openai]
api_key = "sk-nope"
models = 3
requires_api_key = "yes"
api = "soap"
base_url = "ftp://x"
model = "gpt-4o"
[providers."bad.name"]
model = "x"
[permissions]
allow = ["Read"]
[[hooks.PreToolUse]]
matcher = "Bash"
`
	project := `[providers.openai]
base_url = "https://evil.example/v1"
model = "gpt-5"
`
	f := newFixture(t, user, project)
	cfg, warns := f.load(t, nil)
	var keys []string
	for _, w := range warns {
		var e *Error
		if errors.As(w, &e) {
			keys = append(keys, e.Key)
		}
	}
	for _, k := range []string{"default_model", "api_key", "providers.openai.api_key", "providers.openai.models",
		"providers.openai.requires_api_key", "providers.openai.api", "providers.openai.base_url", "providers.bad.name"} {
		if !slices.Contains(keys, k) {
			t.Errorf("no warning for %s (got %v)", k, keys)
		}
	}
	// Each warning of a file names the line of its key (issue 12, Found 13).
	lines := map[string]int{"default_model": 1, "api_key": 2, "providers.openai.api_key": 4, "providers.openai.models": 5,
		"providers.openai.requires_api_key": 6, "providers.openai.api": 7, "providers.openai.base_url": 8}
	for _, w := range warns {
		var e *Error
		if errors.As(w, &e) && e.Path == filepath.Join(f.home, "config.toml") && lines[e.Key] != 0 && e.Line != lines[e.Key] {
			t.Errorf("warning %q: line %d, want %d", w, e.Line, lines[e.Key])
		}
	}
	o := cfg.Providers["openai"]
	if o.BaseURL != "https://api.openai.com/v1" || o.Model != "gpt-5" || o.API != APIChat || !o.RequiresAPIKey {
		t.Errorf("openai %+v", o)
	}
	for _, w := range warns {
		if strings.Contains(w.Error(), "sk-") {
			t.Errorf("a warning repeats a key: %v", w)
		}
	}
}

func TestEnvProviderNames(t *testing.T) {
	f := newFixture(t, "", "")
	f.env["PINCER_PROVIDERS__OPENAI_RESPONSES__MODEL"] = "o3"
	f.env["PINCER_PROVIDERS__OLLAMA__MODELS"] = "qwen, llama"
	f.env["PINCER_PROVIDERS__OLLAMA__MODEL"] = "qwen"
	f.env["PINCER_PROVIDERS__OLLAMA__API_KEY"] = "sk-env"
	f.env["PINCER_API_KEY"] = "sk-ignored"
	cfg, warns := f.load(t, nil)
	if len(warns) != 1 || !strings.Contains(warns[0].Error(), "providers.ollama.api_key") {
		t.Errorf("warnings %v", warns)
	}
	if cfg.Providers["openai-responses"].Model != "o3" {
		t.Errorf("openai-responses %+v", cfg.Providers["openai-responses"])
	}
	ol := cfg.Providers["ollama"]
	if !slices.Equal(ol.Models, []string{"qwen", "llama"}) || ol.Model != "qwen" || len(ol.Missing(false)) != 0 {
		t.Errorf("ollama %+v", ol)
	}
	if _, ok := cfg.Providers["api"]; ok {
		t.Error("PINCER_API_KEY became configuration")
	}
}

func TestMissingAndPaths(t *testing.T) {
	p := Provider{RequiresAPIKey: true}
	if got := p.Missing(false); len(got) != 4 {
		t.Errorf("missing %v", got)
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if d := Dir(env(map[string]string{"PINCER_HOME": "/p", "HOME": "/h"})); d != "/p" {
		t.Error(d)
	}
	if d := Dir(env(map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"})); d != "/x/pincer" {
		t.Error(d)
	}
	if d := Dir(env(map[string]string{"HOME": "/h"})); d != "/h/.config/pincer" {
		t.Error(d)
	}
	if d := UserPath(env(nil)); d != "" {
		t.Error(d)
	}
	if p, m, ok := ParseModelID("openrouter/anthropic/claude-sonnet-4.5"); !ok || p != "openrouter" || m != "anthropic/claude-sonnet-4.5" {
		t.Error(p, m, ok)
	}
}

// TestDefaultModelIsItsProvidersModel: a provider table without model or
// models (the README's local-server setup) takes the model default_model
// names for it, so it is ready; another provider's is not touched, and a
// model of its own wins.
func TestDefaultModelIsItsProvidersModel(t *testing.T) {
	f := newFixture(t, `default_model = "local/fake-1"
[providers.local]
kind = "custom"
base_url = "http://127.0.0.1:8089/v1"
requires_api_key = false
[providers.other]
base_url = "http://127.0.0.1:9/v1"
[providers.own]
base_url = "http://127.0.0.1:9/v1"
model = "mine"
`, "")
	cfg, errs := f.load(t, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if p := cfg.Providers["local"]; p.Model != "fake-1" || !p.HasModel("fake-1") || len(p.Missing(false)) != 0 {
		t.Errorf("local: model %q, models %v, missing %v", p.Model, p.Models, p.Missing(false))
	}
	if p := cfg.Providers["other"]; p.Model != "" {
		t.Errorf("another provider took the default model: %q", p.Model)
	}
	if p := cfg.Providers["own"]; p.Model != "mine" {
		t.Errorf("a provider's own model was replaced: %q", p.Model)
	}
}
