package tui

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/config"
	"pincer/core/config/modelflow"
	"pincer/core/event"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
	"pincer/core/secret"
)

const simKey = "sk-sim-test-7d41e2b9"

// modelHome gives the test a private PINCER_HOME, no keys or model in the
// environment and an unavailable OS keyring, so keys go to the encrypted file
// (as cmd_model_test.go does); it returns the home and the backend's
// configuration loader over it.
func modelHome(t *testing.T) (string, func() (*modelflow.Env, []error)) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("PINCER_HOME", home)
	for _, k := range []string{"PINCER_API_KEY", "PINCER_MODEL", "PINCER_DEFAULT_MODEL", "PINCER_SECRET_COMMAND",
		"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "DEEPSEEK_API_KEY"} {
		t.Setenv(k, "")
	}
	// The keyring is unavailable for the whole package (TestMain).
	env := func() (*modelflow.Env, []error) {
		cfg, warns := config.Load(config.Options{Getenv: os.Getenv})
		return &modelflow.Env{Config: cfg, Getenv: os.Getenv, Secrets: secret.Open(home, os.Getenv)}, warns
	}
	return home, env
}

// modelBench is attached() with a backend that runs /model commands on env;
// prov nil: a session with no model to run on.
func modelBench(t *testing.T, prov provider.Provider, env func() (*modelflow.Env, []error)) (*simBench, string) {
	t.Helper()
	b := startBench(t, 140, 50, Options{})
	ag, _ := newTestAgent(t, prov)
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	be := backendOf(ag)
	be.ModelEnv = env
	b.w.Attach(be, s.ID)
	b.waitText(shortID(s.ID) + " · idle")
	return b, s.ID
}

// slash types a command in the input box and presses Enter.
func (b *simBench) slash(line string) {
	b.key(tcell.KeyRune, '0', tcell.ModAlt)
	b.typeText(line)
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
}

// enter presses Enter.
func (b *simBench) enter() { b.key(tcell.KeyEnter, 0, tcell.ModNone) }

// waitPrompt waits until a question prompt has the keyboard.
func (b *simBench) waitPrompt() {
	b.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		open := false
		b.onLoop(func() { open = b.w.prompt != nil })
		if open {
			return
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("no prompt opened; screen:\n%s", b.text())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// noKeyOnScreen fails when the screen holds simKey.
func (b *simBench) noKeyOnScreen() {
	b.t.Helper()
	if s := b.text(); strings.Contains(s, simKey) {
		b.t.Fatalf("the API key is on the screen:\n%s", s)
	}
}

// TestModelConfigureThroughOverlay: /model configures a custom provider with
// typed answers; config.toml is written only at the end, without the key, and
// the key goes to the encrypted file; it never shows on the screen nor in any
// event; /model status shows it as [configured].
func TestModelConfigureThroughOverlay(t *testing.T) {
	home, hooks := modelHome(t)
	b, sid := modelBench(t, &providertest.Scripted{}, hooks)
	cfgPath := filepath.Join(home, "config.toml")

	b.slash("/model configure") // a bare /model picks: the session runs on a provider
	b.waitText("Provider", "another OpenAI-compatible endpoint")
	b.typeText("G")
	b.enter()
	b.waitText("Name of the new provider")
	b.typeText("acme")
	b.enter()
	b.waitText("Base URL")
	b.typeText("http://127.0.0.1:9/v1")
	b.enter()
	b.waitText("Wire API")
	b.enter() // chat
	b.waitText("Does it need an API key?")
	b.typeText("y")
	b.waitText("Model names")
	b.typeText("m1, m2")
	b.enter()
	b.waitText("API key for acme")
	b.typeText(simKey)
	b.waitText("> " + strings.Repeat("•", len(simKey)))
	b.noKeyOnScreen()
	b.enter()
	b.waitText("Default model", "m2")
	if _, err := os.Stat(cfgPath); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("config.toml written before the last answer: %v", err)
	}
	b.typeText("j")
	b.enter()
	b.waitText("default model: acme/m2")
	b.noKeyOnScreen()

	data, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "acme") || !strings.Contains(string(data), "acme/m2") {
		t.Errorf("config.toml lacks the provider:\n%s", data)
	}
	if got, src, err := secret.Open(home, os.Getenv).Get(t.Context(), secret.ProviderKey("acme")); err != nil || got != simKey {
		t.Errorf("stored key = %q from %q, %v", got, src, err)
	} else if !strings.Contains(strings.ToLower(src), "file") {
		t.Errorf("key source %q, want the encrypted file", src)
	}
	grepFiles(t, home, simKey)

	b.slash("/model status")
	b.waitText("openrouter (builtin")
	b.key(tcell.KeyRune, '1', tcell.ModAlt) // the transcript, from its top
	b.key(tcell.KeyHome, 0, tcell.ModNone)
	b.waitText("acme (custom", "[configured]")
	b.noKeyOnScreen()

	// /model set: hidden again.
	b.slash("/model set acme api-key")
	b.waitPrompt() // "API key for acme" is on the screen already, from the first answer
	b.typeText(simKey + "2")
	b.waitText("> " + strings.Repeat("•", len(simKey)+1))
	b.noKeyOnScreen()
	b.enter()
	b.waitText("API key for acme ")
	b.noKeyOnScreen()
	grepFiles(t, home, simKey)

	for _, ev := range events(t, b.backend().Agent, sid) {
		if bytes.Contains(ev.Data, []byte(simKey)) {
			t.Errorf("event %s holds the key: %s", ev.Type, ev.Data)
		}
	}
}

// grepFiles fails when a file under dir holds s.
func grepFiles(t *testing.T, dir, s string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if data, _ := os.ReadFile(p); bytes.Contains(data, []byte(s)) {
			t.Errorf("%s holds the key in clear", p)
		}
		return nil
	})
}

// TestModelConfigureCancel: Esc in the middle of /model saves nothing and
// gives the input box back.
func TestModelConfigureCancel(t *testing.T) {
	home, hooks := modelHome(t)
	b, _ := modelBench(t, &providertest.Scripted{}, hooks)
	b.slash("/model configure acme")
	b.waitText("Base URL")
	b.typeText("http://127.0.0.1:9/v1")
	b.enter()
	b.waitText("Wire API")
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.waitText("cancelled: nothing was saved")
	if entries, _ := os.ReadDir(home); len(entries) != 0 {
		t.Errorf("PINCER_HOME after a cancelled /model: %v", entries)
	}
	b.typeText("hello")
	b.waitText("hello")
	open := true
	b.onLoop(func() { open = b.w.prompt != nil })
	if open {
		t.Error("the prompt is still open")
	}
}

// TestModelSwitch: /model switch chooses another model of the provider; the
// status line shows it, the session stores it, and the next request uses it.
func TestModelSwitch(t *testing.T) {
	home, hooks := modelHome(t)
	err := config.Update(filepath.Join(home, "config.toml"), func(u *config.UserFile) error {
		return u.SetProvider("fake", config.ProviderSettings{Kind: config.KindCustom, API: config.APIChat,
			BaseURL: "http://127.0.0.1:9/v1", Model: "m", Models: []string{"m", "m2"}})
	})
	if err != nil {
		t.Fatal(err)
	}
	prov := &providertest.Scripted{}
	b, sid := modelBench(t, prov, hooks)
	b.key(tcell.KeyRune, '0', tcell.ModAlt)
	b.typeText("/model sw")
	b.waitText("/model sw", "switch [MODEL]")
	b.key(tcell.KeyTab, 0, tcell.ModNone) // completes to "/model switch "
	b.waitText("/model switch ")
	b.enter()
	b.waitText("Model for this session (fake)", "m · current")
	b.typeText("j")
	b.enter()
	b.waitText("fake/m2 · default · " + shortID(sid))
	s, err := b.backend().Store.GetSession(t.Context(), sid)
	if err != nil || s.Model != "fake/m2" {
		t.Fatalf("stored session model = %q, %v", s.Model, err)
	}
	var changed []event.Event
	for _, ev := range events(t, b.backend().Agent, sid) {
		if ev.Type == event.ModelChanged {
			changed = append(changed, ev)
		}
	}
	if len(changed) != 1 {
		t.Fatalf("model.changed events: %v", changed)
	}
	b.waitText("model: fake/m2")
	b.send("hi")
	b.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	if got := prov.Request(0).Model; got != "m2" {
		t.Errorf("request model = %q, want m2", got)
	}
	if cfg, _ := config.Load(config.Options{Getenv: os.Getenv}); cfg.DefaultModel == "fake/m2" {
		t.Error("switch changed the default model")
	}
}
