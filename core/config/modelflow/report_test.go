package modelflow

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"pincer/core/config"
)

// TestSwitch: Switch picks among the active provider's models, marks the
// session's, and takes a full ID of a configured provider (another one too).
func TestSwitch(t *testing.T) {
	w := newWorld(t)
	e := w.e()
	p := w.script(1)
	id, err := Switch(e, p, "deepseek/deepseek-chat", "")
	if err != nil || id != "deepseek/deepseek-reasoner" {
		t.Fatalf("%q %v", id, err)
	}
	if !strings.Contains(p.asked[0], "deepseek-chat · current") {
		t.Errorf("current marker: %q", p.asked[0])
	}
	// The marker follows the session's model, not the default.
	p = w.script(0)
	Switch(e, p, "deepseek/deepseek-reasoner", "")
	if !strings.Contains(p.asked[0], "deepseek-reasoner · current") || strings.Contains(p.asked[0], "deepseek-chat · current") {
		t.Errorf("marker on the default instead of the session's model: %q", p.asked[0])
	}
	cases := []struct{ current, arg, want, errHas string }{
		{"deepseek/deepseek-chat", "deepseek-reasoner", "deepseek/deepseek-reasoner", ""},
		{"deepseek/deepseek-chat", "deepseek/deepseek-reasoner", "deepseek/deepseek-reasoner", ""},
		{"deepseek/deepseek-chat", "openai/gpt-4o", "openai/gpt-4o", ""}, // another configured provider
		{"", "openai/gpt-4o", "openai/gpt-4o", ""},                       // no model yet: a configured provider's
		{"openrouter/openai/gpt-4.1", "anthropic/claude-sonnet-4.5", "openrouter/anthropic/claude-sonnet-4.5", ""},
		{"", "x", "", "no current model"},
	}
	for _, c := range cases {
		got, err := Switch(e, nil, c.current, c.arg)
		if c.errHas != "" {
			if err == nil || !strings.Contains(err.Error(), c.errHas) {
				t.Errorf("Switch(%q, %q): %v", c.current, c.arg, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("Switch(%q, %q) = %q %v, want %q", c.current, c.arg, got, err, c.want)
		}
	}
	if _, err := Switch(e, w.script(errors.New("interrupt")), "deepseek/deepseek-chat", ""); !errors.Is(err, ErrCancelled) {
		t.Errorf("cancelled switch: %v", err)
	}
	if len(w.files()) != 0 {
		t.Error("switch wrote a file")
	}
}

func TestDefaultAddModelSetKeyListStatus(t *testing.T) {
	w := newWorld(t)
	ctx := t.Context()
	if err := SetDefault(ctx, w.e(), "deepseek/deepseek-chat"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(w.out.String(), "not ready") {
		t.Errorf("no readiness note: %s", w.out.String())
	}
	if err := SetDefault(ctx, w.e(), "nope/x"); err == nil {
		t.Error("unknown provider accepted")
	}
	if err := AddModel(w.e(), "deepseek", "deepseek-v4"); err != nil {
		t.Fatal(err)
	}
	if err := SetAPIKey(ctx, w.e(), nil, "deepseek", testKey); err != nil {
		t.Fatal(err)
	}
	if err := SetAPIKey(ctx, w.e(), w.script(testKey+"2"), "openai", ""); err != nil {
		t.Fatal(err)
	}
	if err := SetAPIKey(ctx, w.e(), w.script(""), "groq", ""); !errors.Is(err, ErrCancelled) {
		t.Errorf("empty key: %v", err)
	}
	e := w.e()
	if !e.Config.Providers["deepseek"].HasModel("deepseek-v4") || e.Config.DefaultModel != "deepseek/deepseek-chat" {
		t.Errorf("config %+v", e.Config.Providers["deepseek"])
	}
	var list, status bytes.Buffer
	List(ctx, e, &list, "deepseek/deepseek-v4")
	Status(ctx, e, &status)
	for _, want := range []string{"* deepseek/deepseek-chat  (default)", "> deepseek/deepseek-v4  (current)", "ollama (not ready"} {
		if !strings.Contains(list.String(), want) {
			t.Errorf("list lacks %q:\n%s", want, list.String())
		}
	}
	if !strings.Contains(status.String(), "deepseek (builtin, configured in") || strings.Count(status.String(), "[configured]") != 2 {
		t.Errorf("status:\n%s", status.String())
	}
	for _, out := range []string{list.String(), status.String()} {
		if strings.Contains(out, "sk-") {
			t.Errorf("a key fragment is shown:\n%s", out)
		}
	}
	w.assertNoKeyInClear(testKey)
	// An environment key is shown by its variable's name only.
	w.env["OPENAI_API_KEY"] = "sk-env-value"
	status.Reset()
	Status(ctx, w.e(), &status)
	if !strings.Contains(status.String(), "[configured] (environment: OPENAI_API_KEY)") || strings.Contains(status.String(), "sk-env") {
		t.Errorf("status with env key:\n%s", status.String())
	}
}

func TestRefresh(t *testing.T) {
	w := newWorld(t)
	ctx := t.Context()
	var (
		mu    sync.Mutex
		asked []string
	)
	lister := func(ctx context.Context, p config.Provider, key string) ([]string, error) {
		mu.Lock()
		asked = append(asked, p.Name)
		mu.Unlock()
		switch p.Name {
		case "ollama":
			return []string{"qwen2.5-coder", "llama3.2"}, nil
		case "lmstudio":
			return nil, errors.New("connection refused")
		}
		return []string{"m"}, nil
	}
	err := Refresh(ctx, w.e(), []string{"deepseek", "ollama", "lmstudio"}, lister)
	if err == nil || !strings.Contains(err.Error(), "lmstudio") {
		t.Errorf("err %v", err)
	}
	out := w.out.String()
	if !strings.Contains(out, "refresh skipped: deepseek is not ready (needs an API key") || !strings.Contains(out, "ollama: 2 models (2 new)") {
		t.Errorf("output:\n%s", out)
	}
	if strings.Join(asked, ",") != "ollama,lmstudio" && strings.Join(asked, ",") != "lmstudio,ollama" {
		t.Errorf("asked %v", asked)
	}
	ol := w.e().Config.Providers["ollama"]
	if ol.Model != "qwen2.5-coder" || !ol.HasModel("llama3.2") || len(ol.Missing(false)) != 0 {
		t.Errorf("ollama after refresh %+v", ol)
	}
	w.out.Reset()
	if err := Refresh(ctx, w.e(), nil, lister); err != nil || !strings.Contains(w.out.String(), "ollama: 2 models (0 new)") {
		t.Errorf("refresh of configured providers: %v\n%s", err, w.out.String())
	}
}
