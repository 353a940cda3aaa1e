package modelflow

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/config"
	"pincer/core/secret"
)

const testKey = "sk-flow-test-5f3a9c"

// scripted answers a flow's questions from a queue: a string for Ask (""
// accepts the default) and AskSecret, a bool for Confirm, an int for Choose, an
// error for any of them.
type scripted struct {
	t       *testing.T
	answers []any
	asked   []string
}

func (s *scripted) next(q string) any {
	s.t.Helper()
	s.asked = append(s.asked, q)
	if len(s.answers) == 0 {
		s.t.Fatalf("unexpected question %q", q)
	}
	a := s.answers[0]
	s.answers = s.answers[1:]
	return a
}

func (s *scripted) Ask(q, def string) (string, error) {
	switch a := s.next(q).(type) {
	case error:
		return "", a
	case string:
		if a == "" {
			return def, nil
		}
		return a, nil
	}
	s.t.Fatalf("Ask(%q): script has no string", q)
	return "", nil
}

func (s *scripted) AskSecret(q string) (string, error) {
	switch a := s.next(q).(type) {
	case error:
		return "", a
	case string:
		return a, nil
	}
	s.t.Fatalf("AskSecret(%q): script has no string", q)
	return "", nil
}

func (s *scripted) Confirm(q string) (bool, error) {
	switch a := s.next(q).(type) {
	case error:
		return false, a
	case bool:
		return a, nil
	}
	s.t.Fatalf("Confirm(%q): script has no bool", q)
	return false, nil
}

func (s *scripted) Choose(q string, options []string, _ int) (int, error) {
	switch a := s.next(q + " " + strings.Join(options, "|")).(type) {
	case error:
		return 0, a
	case int:
		if a < 0 || a >= len(options) {
			s.t.Fatalf("Choose(%q): %d out of %v", q, a, options)
		}
		return a, nil
	}
	s.t.Fatalf("Choose(%q): script has no int", q)
	return 0, nil
}

// world is a PINCER_HOME with a file-only secret store.
type world struct {
	t    *testing.T
	home string
	env  map[string]string
	out  bytes.Buffer
}

func newWorld(t *testing.T) *world {
	return &world{t: t, home: t.TempDir(), env: map[string]string{}}
}

func (w *world) getenv(k string) string {
	if k == "PINCER_HOME" {
		return w.home
	}
	return w.env[k]
}

// e loads the configuration afresh, as each command does.
func (w *world) e() *Env {
	w.t.Helper()
	cfg, warns := config.Load(config.Options{Getenv: w.getenv, Environ: func() []string { return nil }})
	if len(warns) > 0 {
		w.t.Fatalf("warnings: %v", warns)
	}
	return &Env{Config: cfg, Secrets: &secret.Chain{File: secret.NewFile(w.home)}, Getenv: w.getenv, Out: &w.out}
}

func (w *world) script(answers ...any) *scripted { return &scripted{t: w.t, answers: answers} }

// files lists the files under PINCER_HOME.
func (w *world) files() []string {
	var out []string
	filepath.WalkDir(w.home, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// assertNoKeyInClear greps every file under PINCER_HOME.
func (w *world) assertNoKeyInClear(key string) {
	w.t.Helper()
	for _, p := range w.files() {
		if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(key)) {
			w.t.Errorf("%s holds the key in clear", p)
		}
	}
	if strings.Contains(w.out.String(), key) {
		w.t.Errorf("output shows the key: %s", w.out.String())
	}
}

func TestConfigureSavesOnceAtTheEnd(t *testing.T) {
	w := newWorld(t)
	ctx := t.Context()
	p := w.script("", "deepseek-chat, deepseek-reasoner, my-x", testKey, 1)
	id, err := Configure(ctx, w.e(), p, "deepseek")
	if err != nil || id != "deepseek/deepseek-reasoner" {
		t.Fatalf("Configure = %q, %v (asked %q)", id, err, p.asked)
	}
	e := w.e()
	ds := e.Config.Providers["deepseek"]
	if e.Config.DefaultModel != id || ds.Model != "deepseek-reasoner" || !ds.HasModel("my-x") || !ds.Configured() {
		t.Errorf("config after configure: %q %+v", e.Config.DefaultModel, ds)
	}
	if v, src := e.Key(ctx, "deepseek"); v != testKey || !strings.Contains(src, "encrypted file") {
		t.Errorf("key matches: %v, from %q", v == testKey, src)
	}
	w.assertNoKeyInClear(testKey)
	var status bytes.Buffer
	Status(ctx, e, &status)
	if !strings.Contains(status.String(), "[configured]") || strings.Contains(status.String(), testKey[:6]) {
		t.Errorf("status:\n%s", status.String())
	}
}

func TestConfigureCancelMidwayLeavesNothing(t *testing.T) {
	cases := []struct {
		name    string
		answers func(e *Env) []any
	}{
		{"end of input at the key", func(e *Env) []any {
			return []any{index(e.Config.Names(), "openai"), "", "gpt-4o", io.EOF}
		}},
		{"interrupt at the default model", func(e *Env) []any {
			return []any{index(e.Config.Names(), "openai"), "", "gpt-4o", testKey, errors.New("interrupt")}
		}},
		{"empty required model list", func(e *Env) []any {
			return []any{len(e.Config.Names()), "vllm", "http://127.0.0.1:8000/v1", 0, false, ""}
		}},
		{"empty key", func(e *Env) []any {
			return []any{index(e.Config.Names(), "anthropic"), "", "", "  "}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			e := w.e()
			_, err := Configure(t.Context(), e, w.script(c.answers(e)...), "")
			if !errors.Is(err, ErrCancelled) {
				t.Fatalf("err %v", err)
			}
			if f := w.files(); len(f) != 0 {
				t.Errorf("a cancelled configure left %v", f)
			}
		})
	}
}

func TestReconfigureAsksBeforeOverwriting(t *testing.T) {
	w := newWorld(t)
	ctx := t.Context()
	if _, err := Configure(ctx, w.e(), w.script("", "", testKey, 0), "deepseek"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(w.home, "config.toml")
	before, _ := os.ReadFile(path)
	p := w.script(false)
	if _, err := Configure(ctx, w.e(), p, "deepseek"); !errors.Is(err, ErrCancelled) || !strings.Contains(p.asked[0], "Overwrite") {
		t.Fatalf("declined overwrite: %v %q", err, p.asked)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("a declined overwrite changed the file")
	}
	// Accepted: an empty key keeps the stored one.
	p = w.script(true, "https://proxy.example/v1", "deepseek-chat", "", 0)
	if _, err := Configure(ctx, w.e(), p, "deepseek"); err != nil {
		t.Fatalf("overwrite: %v (asked %q)", err, p.asked)
	}
	e := w.e()
	if e.Config.Providers["deepseek"].BaseURL != "https://proxy.example/v1" {
		t.Errorf("not overwritten: %+v", e.Config.Providers["deepseek"])
	}
	if v, _ := e.Key(ctx, "deepseek"); v != testKey {
		t.Error("the stored key was lost")
	}
	// A provider never configured gets no overwrite question.
	p = w.script("", "gpt-4o", testKey, 0)
	if _, err := Configure(ctx, w.e(), p, "openai"); err != nil || strings.Contains(strings.Join(p.asked, " "), "Overwrite") {
		t.Errorf("first configure of openai: %v %q", err, p.asked)
	}
}

func TestConfigureCustomProvider(t *testing.T) {
	w := newWorld(t)
	e := w.e()
	p := w.script(len(e.Config.Names()), "vllm", "http://127.0.0.1:8000/v1/", 0, false, "qwen, llama", 0)
	id, err := Configure(t.Context(), e, p, "")
	if err != nil || id != "vllm/qwen" {
		t.Fatalf("%q %v %q", id, err, p.asked)
	}
	v := w.e().Config.Providers["vllm"]
	if v.Kind != config.KindCustom || v.BaseURL != "http://127.0.0.1:8000/v1" || v.RequiresAPIKey || len(v.Missing(false)) != 0 {
		t.Errorf("custom provider %+v", v)
	}
}

// index is the position of s in list.
func index(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// TestConfigureOffersServedModels: a new custom provider with no model list
// gets the server's list (Env.List) as the default answer, so Enter takes
// it; a list that cannot be read is said, and the question stays empty (new
// user r21 finding 10: Enter at the empty question cancelled the setup).
func TestConfigureOffersServedModels(t *testing.T) {
	w := newWorld(t)
	e := w.e()
	var asked config.Provider
	e.List = func(_ context.Context, p config.Provider, key string) ([]string, error) {
		asked = p
		return []string{"fake-1", "fake-2"}, nil
	}
	// name (new), base URL, wire API (chat), needs a key: no, models: Enter, default: fake-2
	p := w.script(len(e.Config.Names()), "local", "http://127.0.0.1:8089/v1", 0, false, "", 1)
	id, err := Configure(t.Context(), e, p, "")
	if err != nil || id != "local/fake-2" {
		t.Fatalf("Configure = %q, %v (asked %q)", id, err, p.asked)
	}
	if asked.BaseURL != "http://127.0.0.1:8089/v1" {
		t.Errorf("the list was asked of %+v", asked)
	}
	if lp := w.e().Config.Providers["local"]; !lp.HasModel("fake-1") || !lp.HasModel("fake-2") {
		t.Errorf("saved models %v", lp.Models)
	}
	// Reconfigured: the server is asked again and what it lists now joins
	// the names the provider has (new user r22: it was not asked).
	e = w.e()
	e.List = func(context.Context, config.Provider, string) ([]string, error) {
		return []string{"fake-2", "fake-3"}, nil
	}
	p = w.script(true, "", 0, false, "", 2)
	if id, err := Configure(t.Context(), e, p, "local"); err != nil || id != "local/fake-3" {
		t.Fatalf("reconfigure = %q, %v (asked %q)", id, err, p.asked)
	}
	if lp := w.e().Config.Providers["local"]; strings.Join(lp.Models, " ") != "fake-1 fake-2 fake-3" {
		t.Errorf("reconfigured models %v, want fake-1 fake-2 fake-3", lp.Models)
	}
	e = w.e()
	e.List = func(context.Context, config.Provider, string) ([]string, error) {
		return nil, errors.New("connection refused")
	}
	p = w.script(len(e.Config.Names()), "other", "http://127.0.0.1:9/v1", 0, false, "")
	if _, err := Configure(t.Context(), e, p, ""); !errors.Is(err, ErrCancelled) || !strings.Contains(w.out.String(), "could not be read (connection refused)") {
		t.Errorf("an unreadable list: %v, said %q", err, w.out.String())
	}
}
