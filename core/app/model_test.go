package app

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"pincer/core/config"
)

func TestResolveModel(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	cases := []struct {
		model, base string
		getenv      func(string) string
		api, key    string
		errHas      string
	}{
		{"openai/gpt-4.1", "", env("OPENAI_API_KEY", "o"), "chat", "o", ""},
		{"anthropic/claude-sonnet-4-5", "", env("ANTHROPIC_API_KEY", "a", "OPENAI_API_KEY", "o"), "anthropic", "a", ""},
		{"anthropic/claude-sonnet-4-5", "", env("OPENAI_API_KEY", "o"), "", "", "ANTHROPIC_API_KEY"},
		{"gemini/gemini-2.5-pro", "", env("GOOGLE_API_KEY", "g"), "gemini", "g", ""},
		{"openai-responses/gpt-5", "", env("PINCER_API_KEY", "p", "OPENAI_API_KEY", "o"), "responses", "p", ""},
		{"ollama/qwen", "", env(), "chat", "", ""},
		{"vllm/qwen", "http://127.0.0.1:8000/v1", env(), "chat", "", ""},
		{"vllm/qwen", "", env(), "", "", "unknown provider"},
		{"noslash", "", env(), "", "", "PROVIDER/MODEL"},
		{"x/y", "ftp://host", env(), "", "", "--base-url"},
	}
	for _, c := range cases {
		mc, err := ResolveModel(c.model, c.base, c.getenv)
		if c.errHas != "" {
			if err == nil || !strings.Contains(err.Error(), c.errHas) {
				t.Errorf("%s: err %v, want one containing %q", c.model, err, c.errHas)
			}
			continue
		}
		if err != nil || mc.API != c.api || mc.APIKey != c.key {
			t.Errorf("%s: %+v %v", c.model, mc, err)
		}
	}
}

// resolveEnv is a getenv over m with PINCER_HOME set to home.
func resolveEnv(home string, kv ...string) func(string) string {
	m := map[string]string{"PINCER_HOME": home, "PATH": os.Getenv("PATH")}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestResolveModelFromConfigAndFirstRun(t *testing.T) {
	keyring.MockInit()
	noProbe := func(*config.Config) string { return "" }
	probeLocalModel = noProbe
	defer func() { probeLocalModel = probeLocal }()
	home := t.TempDir()
	writeFile(t, filepath.Join(home, "config.toml"), `default_model = "deepseek/deepseek-reasoner"
[providers.vllm]
kind = "custom"
base_url = "http://127.0.0.1:8000/v1"
model = "qwen"
`)
	empty := t.TempDir()
	helper := filepath.Join(t.TempDir(), "secret.sh")
	writeFile(t, helper, "#!/bin/sh\n[ \"$PINCER_SECRET_KEY\" = provider:anthropic ] && echo from-command\n")
	os.Chmod(helper, 0o700)
	cases := []struct {
		name, model string
		getenv      func(string) string
		probe       string
		id, key     string
		errHas      string
	}{
		{"config default", "", resolveEnv(home, "DEEPSEEK_API_KEY", "d"), "", "deepseek/deepseek-reasoner", "d", ""},
		{"PINCER_MODEL beats config", "", resolveEnv(home, "PINCER_MODEL", "vllm/qwen"), "", "vllm/qwen", "", ""},
		{"custom provider from config", "vllm/other", resolveEnv(home), "", "vllm/other", "", ""},
		{"custom falls back to OPENAI_API_KEY", "vllm/qwen", resolveEnv(home, "OPENAI_API_KEY", "o"), "", "vllm/qwen", "o", ""},
		{"builtin does not take OPENAI_API_KEY", "deepseek/deepseek-chat", resolveEnv(home, "OPENAI_API_KEY", "o"), "", "", "", "DEEPSEEK_API_KEY"},
		{"first run: anthropic key", "", resolveEnv(empty, "ANTHROPIC_API_KEY", "a", "OPENAI_API_KEY", "o"), "", "anthropic/claude-sonnet-4-5", "a", ""},
		{"first run: openai key", "", resolveEnv(empty, "OPENAI_API_KEY", "o"), "", "openai/gpt-4.1", "o", ""},
		{"first run: deepseek key", "", resolveEnv(empty, "DEEPSEEK_API_KEY", "d"), "", "deepseek/deepseek-chat", "d", ""},
		{"first run: local server", "", resolveEnv(empty), "ollama/qwen2.5-coder", "ollama/qwen2.5-coder", "", ""},
		{"first run: nothing", "", resolveEnv(empty), "", "", "", "pincer model configure"},
		{"key from the secret command", "anthropic/claude-opus-4", resolveEnv(empty, "PINCER_SECRET_COMMAND", helper), "", "anthropic/claude-opus-4", "from-command", ""},
	}
	for _, c := range cases {
		probeLocalModel = func(*config.Config) string { return c.probe }
		mc, err := ResolveModel(c.model, "", c.getenv)
		if c.errHas != "" {
			if err == nil || !strings.Contains(err.Error(), c.errHas) {
				t.Errorf("%s: err %v, want %q", c.name, err, c.errHas)
			}
			continue
		}
		if err != nil || mc.ID() != c.id || mc.APIKey != c.key {
			t.Errorf("%s: %s key %q, %v; want %s key %q", c.name, mc.ID(), mc.APIKey, err, c.id, c.key)
		}
	}
}

func TestResolveModelWarningsAndProjectCannotRedirect(t *testing.T) {
	keyring.MockInit()
	home, work := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, "config.toml"), "default_model = \"openai/gpt-4o\"\nbroken = \n")
	writeFile(t, filepath.Join(work, ".pincer", "config.toml"), "[providers.openai]\nbase_url = \"https://evil.example/v1\"\n")
	t.Chdir(work)
	mc, err := ResolveModel("openai/gpt-4o", "", resolveEnv(home, "OPENAI_API_KEY", "o"))
	if err != nil || mc.BaseURL != "https://api.openai.com/v1" {
		t.Fatalf("%+v %v", mc, err)
	}
	all := strings.Join(mc.Warnings, "\n")
	if !strings.Contains(all, filepath.Join(home, "config.toml")+":2:") || !strings.Contains(all, "cannot change a provider's endpoint") {
		t.Errorf("warnings:\n%s", all)
	}
}

func TestResolveProbeLocal(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, `{"object":"list","data":[{"id":"qwen2.5-coder:7b"},{"id":"llama3.2"}]}`)
	}))
	defer srv.Close()
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	defer slow.Close()
	home := t.TempDir()
	writeFile(t, filepath.Join(home, "config.toml"), "[providers.lmstudio]\nbase_url = \""+srv.URL+"/v1\"\n[providers.ollama]\nbase_url = \""+slow.URL+"/v1\"\n")
	cfg, _ := config.Load(config.Options{Getenv: resolveEnv(home), Environ: func() []string { return nil }})
	if got := probeLocal(cfg); got != "lmstudio/qwen2.5-coder:7b" {
		t.Errorf("probe = %q", got)
	}
}

// writeFile writes content to path, making its directory.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
