package cli

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"pincer/core/app"
	"pincer/persist"
)

// TestContinueKeepsTheSessionModel: `pincer run --continue` and `pincer
// --continue` (the workbench) choose the model by one rule — the flag, else the
// session's model, else the default — so a session switched to another model
// with /model switch stays on it whichever front end continues it.
func TestContinueKeepsTheSessionModel(t *testing.T) {
	t.Setenv("PINCER_HOME", t.TempDir())
	t.Setenv("DEEPSEEK_API_KEY", "sk-test-deepseek")
	t.Setenv("OPENAI_API_KEY", "sk-test-openai")
	t.Setenv("PINCER_MODEL", "openai/gpt-4.1")
	ws := t.TempDir()
	t.Chdir(ws)
	root, _ := filepath.EvalSymlinks(ws)
	store, err := app.OpenStore()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	err = store.PutSession(context.Background(), persist.Session{ID: "s-switched", Title: "hello", Cwd: root,
		Model: "deepseek/deepseek-reasoner", Status: "idle", CreatedAt: now, UpdatedAt: now})
	store.Close()
	if err != nil {
		t.Fatal(err)
	}
	front := map[string]func(args []string) (app.Options, error){
		"pincer run": func(args []string) (app.Options, error) {
			fs, f := newRunFlagSet()
			if _, err := parseInterspersed(fs, args); err != nil {
				return app.Options{}, err
			}
			return f.options(fs)
		},
		"pincer (workbench)": func(args []string) (app.Options, error) {
			fs, f := newTUIFlagSet()
			if err := fs.Parse(args); err != nil {
				return app.Options{}, err
			}
			return f.workbenchOptions(fs)
		},
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--continue"}, "deepseek/deepseek-reasoner"},
		{[]string{"-c"}, "deepseek/deepseek-reasoner"},
		{[]string{"--session", "s-switched"}, "deepseek/deepseek-reasoner"},
		{[]string{"--continue", "--model", "deepseek/deepseek-chat"}, "deepseek/deepseek-chat"},
		{nil, "openai/gpt-4.1"},
	}
	for name, options := range front {
		for _, c := range cases {
			opts, err := options(c.args)
			if err != nil {
				t.Fatalf("%s %v: %v", name, c.args, err)
			}
			setup, err := app.Prepare(opts)
			if err != nil {
				t.Fatalf("%s %v: %v", name, c.args, err)
			}
			if got := setup.Model.ID(); got != c.want {
				t.Errorf("%s %v chose %s, want %s", name, c.args, got, c.want)
			}
		}
	}
}
