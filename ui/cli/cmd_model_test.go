package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"pincer/core/app"
	"pincer/persist"
)

// modelHome gives the test a private PINCER_HOME, no keys or model in the
// environment, and an OS keyring that is unavailable (so keys land in the
// encrypted file, as on a machine without Secret Service).
func modelHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("PINCER_HOME", home)
	for _, k := range []string{"PINCER_API_KEY", "PINCER_MODEL", "PINCER_DEFAULT_MODEL", "PINCER_SECRET_COMMAND",
		"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "DEEPSEEK_API_KEY"} {
		t.Setenv(k, "")
	}
	keyring.MockInitWithError(errors.New("The name org.freedesktop.secrets was not provided by any .service files"))
	t.Cleanup(keyring.MockInit)
	return home
}

// runModel runs `pincer model args...` with stdin.
func runModel(t *testing.T, stdin string, args ...string) (int, string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	code, err := cmdModel(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String(), err
}

// grepHome fails when any file under home holds s.
func grepHome(t *testing.T, home, s string) {
	t.Helper()
	n := 0
	filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(s)) {
			t.Errorf("%s holds the key in clear", p)
		}
		return nil
	})
	if n == 0 {
		t.Error("no file under PINCER_HOME: the key went nowhere?")
	}
}

func TestModelSetKeyNeverInClear(t *testing.T) {
	home := modelHome(t)
	const key, key2 = "sk-test-DO-NOT-LEAK-4b1d9e", "sk-test-ARG-LEAK-77aa01"
	code, out, errOut, err := runModel(t, key+"\n", "set", "deepseek", "api-key")
	if code != 0 || err != nil || !strings.Contains(out, "encrypted file") || !strings.Contains(out, "unavailable") {
		t.Fatalf("set (prompted): %d %v\n%s%s", code, err, out, errOut)
	}
	code, out2, errOut2, err := runModel(t, "", "set", "openai", "api-key", key2)
	if code != 0 || err != nil || !strings.Contains(errOut2, "shell history") {
		t.Fatalf("set (argument): %d %v\n%s%s", code, err, out2, errOut2)
	}
	_, status, _, _ := runModel(t, "", "status")
	if strings.Count(status, "[configured]") != 2 {
		t.Errorf("status:\n%s", status)
	}
	for _, s := range []string{out, errOut, out2, errOut2, status} {
		if strings.Contains(s, key) || strings.Contains(s, key2) || strings.Contains(s, "sk-test") {
			t.Errorf("output shows a key: %s", s)
		}
	}
	grepHome(t, home, key)
	grepHome(t, home, key2)
	mc, err := app.ResolveModel("deepseek/deepseek-chat", "", os.Getenv)
	if err != nil || mc.APIKey != key {
		t.Errorf("ResolveModel with the stored key: %v (key found: %v)", err, mc.APIKey == key)
	}
	// The environment overrides the store for a run.
	t.Setenv("DEEPSEEK_API_KEY", "env-key")
	if mc, _ := app.ResolveModel("deepseek/deepseek-chat", "", os.Getenv); mc.APIKey != "env-key" {
		t.Error("environment key does not override the stored one")
	}
}

func TestModelConfigureFromPipe(t *testing.T) {
	home := modelHome(t)
	const key = "sk-test-configure-91c2"
	code, out, errOut, err := runModel(t, "\ndeepseek-chat, deepseek-reasoner\n"+key+"\n2\n", "configure", "deepseek")
	if code != 0 || err != nil {
		t.Fatalf("configure: %d %v\n%s%s", code, err, out, errOut)
	}
	if strings.Contains(out+errOut, key) {
		t.Error("configure echoed the key")
	}
	grepHome(t, home, key)
	mc, err := app.ResolveModel("", "", os.Getenv)
	if err != nil || mc.ID() != "deepseek/deepseek-reasoner" || mc.APIKey != key || mc.BaseURL != "https://api.deepseek.com/v1" {
		t.Errorf("after configure: %+v %v", mc.ID(), err)
	}
	path := filepath.Join(home, "config.toml")
	before, _ := os.ReadFile(path)
	code, _, errOut, _ = runModel(t, "n\n", "configure", "deepseek")
	if code != 1 || !strings.Contains(errOut, "Overwrite") || !strings.Contains(errOut, "nothing was saved") {
		t.Errorf("declined overwrite: %d %s", code, errOut)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("declined overwrite changed config.toml")
	}
}

func TestModelConfigureCancelMidwayLeavesNothing(t *testing.T) {
	home := modelHome(t)
	for _, stdin := range []string{"", "\n", "\ngpt-4o\n", "\ngpt-4o\nsk-x\n"} {
		code, _, errOut, err := runModel(t, stdin, "configure", "openai")
		if code != 1 || err != nil || !strings.Contains(errOut, "cancelled") {
			t.Errorf("stdin %q: %d %v %s", stdin, code, err, errOut)
		}
		if entries, _ := os.ReadDir(home); len(entries) != 0 {
			t.Fatalf("stdin %q left %v", stdin, entries)
		}
	}
}

func TestModelDefaultAddListRefreshUsage(t *testing.T) {
	modelHome(t)
	if code, _, _, err := runModel(t, "", "default", "openai/gpt-4o"); code != 0 || err != nil {
		t.Fatal(code, err)
	}
	if code, _, _, err := runModel(t, "", "add-model", "openai", "gpt-custom"); code != 0 || err != nil {
		t.Fatal(code, err)
	}
	_, list, _, _ := runModel(t, "", "list")
	if !strings.Contains(list, "* openai/gpt-4o  (default)") || !strings.Contains(list, "openai/gpt-custom") {
		t.Errorf("list:\n%s", list)
	}
	code, out, _, err := runModel(t, "", "refresh", "openai")
	if code != 0 || err != nil || !strings.Contains(out, "refresh skipped: openai is not ready") {
		t.Errorf("refresh without a key: %d %v %s", code, err, out)
	}
	var ue usageError
	for _, args := range [][]string{{"bogus"}, {"default"}, {"set", "openai", "base-url", "x"}, {"switch", "m"}} {
		if _, _, _, err := runModel(t, "", args...); !errors.As(err, &ue) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
}

// TestModelCommandsOnBrokenConfig: with a config line that does not parse,
// `model default` and `model add-model` of a provider defined there name the
// file and line, change nothing and are no usage error (new user r22: they said
// "unknown provider").
func TestModelCommandsOnBrokenConfig(t *testing.T) {
	home := modelHome(t)
	path := filepath.Join(home, "config.toml")
	broken := "default_model = \"local/fake-1\"\n[providers.local]\nbase_url = \"http://127.0.0.1:1/v1\"\nrequires_api_key = false\nthis is not toml\n"
	if err := os.WriteFile(path, []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"default", "local/fake-2"}, {"add-model", "local", "fake-2"}} {
		_, _, _, err := runModel(t, "", args...)
		var ue usageError
		if err == nil || errors.As(err, &ue) || !strings.Contains(err.Error(), path+":5") || strings.Contains(err.Error(), "unknown provider") {
			t.Errorf("%v on a broken config: %v, want the file and line, not a usage error", args, err)
		}
		if b, _ := os.ReadFile(path); string(b) != broken {
			t.Errorf("%v changed the broken file:\n%s", args, b)
		}
	}
}

// TestTermChooseDefault: Enter at a choice takes its default, shown as
// "[N]" and "(default)"; with none, Enter cancels and the prompt says so (new
// user r22: Enter at "Wire API: Choose 1-4" cancelled the whole wizard).
func TestTermChooseDefault(t *testing.T) {
	var out bytes.Buffer
	i, err := newTermPrompter(strings.NewReader("\n"), &out).Choose("Wire API", []string{"chat", "responses"}, 0)
	if err != nil || i != 0 || !strings.Contains(out.String(), "1) chat  (default)") || !strings.Contains(out.String(), "Choose 1-2 [1]: ") {
		t.Errorf("Enter with a default: %d %v\n%s", i, err, out.String())
	}
	out.Reset()
	i, err = newTermPrompter(strings.NewReader("2\n"), &out).Choose("Wire API", []string{"chat", "responses"}, 0)
	if err != nil || i != 1 {
		t.Errorf("typed 2: %d %v", i, err)
	}
	out.Reset()
	if _, err := newTermPrompter(strings.NewReader("\n"), &out).Choose("Provider", []string{"a", "b"}, -1); !errors.Is(err, app.ErrCancelled) ||
		!strings.Contains(out.String(), "(Enter cancels)") {
		t.Errorf("Enter with no default: %v\n%s", err, out.String())
	}
}

func TestModelSwitchSession(t *testing.T) {
	modelHome(t)
	cwd, _ := os.Getwd()
	store, err := app.OpenStore()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	err = store.PutSession(context.Background(), persist.Session{ID: "s1", Title: "hello", Cwd: cwd, Model: "deepseek/deepseek-chat",
		Status: "idle", CreatedAt: now, UpdatedAt: now})
	store.Close()
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut, err := runModel(t, "", "switch", "deepseek-reasoner", "--session", "s1")
	if code != 0 || err != nil || !strings.Contains(out, "now uses deepseek/deepseek-reasoner") {
		t.Fatalf("switch: %d %v %s%s", code, err, out, errOut)
	}
	// Another configured provider's model: the session moves to it (its next run builds that provider).
	if code, out, errOut, err := runModel(t, "", "switch", "openai/gpt-4o", "--continue"); code != 0 || err != nil || !strings.Contains(out, "now uses openai/gpt-4o") {
		t.Errorf("switch across providers: %d %v %s%s", code, err, out, errOut)
	}
	if code, out, errOut, err := runModel(t, "", "switch", "deepseek/deepseek-reasoner", "--continue"); code != 0 || err != nil || !strings.Contains(out, "now uses deepseek/deepseek-reasoner") {
		t.Errorf("switch back: %d %v %s%s", code, err, out, errOut)
	}
	code, _, errOut, _ = runModel(t, "1\n", "switch", "--continue") // from the menu: deepseek-chat
	if code != 0 {
		t.Fatalf("switch from the menu: %s", errOut)
	}
	_, list, _, _ := runModel(t, "", "list", "--continue")
	if !strings.Contains(list, "> deepseek/deepseek-chat  (current)") {
		t.Errorf("list without the session marker:\n%s", list)
	}
	store, err = app.OpenStore()
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	s, _ := store.GetSession(context.Background(), "s1")
	newest, _ := app.FindSession(context.Background(), store, "", true, cwd)
	if got := newest.Model; got != "deepseek/deepseek-chat" || s.Model != got {
		t.Errorf("session model %q (stored %q)", got, s.Model)
	}
	if _, err := os.Stat(filepath.Join(os.Getenv("PINCER_HOME"), "config.toml")); !errors.Is(err, os.ErrNotExist) {
		t.Error("switch wrote the config file")
	}
}
