package app

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/agent"
	"pincer/core/config"
	"pincer/core/provider/openai/openaitest"
)

// TestModelSwitchGivesAProviderlessSessionOne: a workbench started without
// a model (Options.ModelOptional) gets one the moment /model switch names a
// configured provider's model — the next turn reaches that provider, with no
// restart — and a switch to another configured provider's model moves the
// session to it (the first-time user's finding: only a restart worked).
func TestModelSwitchGivesAProviderlessSessionOne(t *testing.T) {
	home := t.TempDir()
	t.Setenv("PINCER_HOME", home)
	t.Chdir(t.TempDir())
	for _, k := range []string{"PINCER_MODEL", "PINCER_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"} {
		t.Setenv(k, "")
	}
	one, two := openaitest.New(openaitest.Reply{Text: "from one"}), openaitest.New(openaitest.Reply{Text: "from two"})
	defer one.Close()
	defer two.Close()
	ctx := context.Background()
	s, err := Prepare(Options{ModelOptional: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Start(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Agent.HasProvider() {
		t.Fatalf("the agent has a provider (%s) with no model configured", r.Agent.ModelName())
	}
	err = config.Update(filepath.Join(home, "config.toml"), func(u *config.UserFile) error {
		for name, srv := range map[string]*openaitest.Server{"one": one, "two": two} {
			if err := u.SetProvider(name, config.ProviderSettings{Kind: config.KindCustom, API: config.APIChat,
				BaseURL: srv.BaseURL(), Model: "m", Models: []string{"m"}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	b := &Backend{Agent: r.Agent, Store: r.Store, ModelEnv: DefaultModelEnv, SessionModel: SessionModelResolver(Options{})}
	var notes []string
	mio := ModelIO{Out: io.Discard, Note: func(string) {}, Notify: func(_, text string) { notes = append(notes, text) }}
	for _, step := range []struct{ model, reply string }{{"one/m", "from one"}, {"two/m", "from two"}} {
		cmd, err := b.ModelCommand(r.SessionID, []string{"switch", step.model})
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Run(ctx, mio); err != nil {
			t.Fatalf("/model switch %s: %v (notes %q)", step.model, err, notes)
		}
		if got := r.Agent.ModelName(); got != step.model {
			t.Errorf("after /model switch %s the agent runs on %q", step.model, got)
		}
		res, err := b.Submit(ctx, r.SessionID, "hello")
		if err != nil || res.Outcome != agent.OutcomeCompleted || !strings.Contains(res.FinalText, step.reply) {
			t.Fatalf("the turn after /model switch %s: %+v, %v", step.model, res, err)
		}
	}
	if len(one.Requests()) != 1 || len(two.Requests()) != 1 {
		t.Errorf("requests: one %d, two %d", len(one.Requests()), len(two.Requests()))
	}
	if got, _ := r.Store.GetSession(ctx, r.SessionID); got.Model != "two/m" {
		t.Errorf("the session's record names %q", got.Model)
	}
}

// answers is a Prompter that answers each question by the first key of
// asks (or the option of choose) its text contains; Confirm says no.
type answers struct {
	asks, choose map[string]string
	t            *testing.T
}

func (a answers) Ask(q, def string) (string, error) {
	for k, v := range a.asks {
		if strings.Contains(q, k) {
			return v, nil
		}
	}
	return def, nil
}

func (a answers) AskSecret(q string) (string, error) {
	a.t.Errorf("asked for a secret: %s", q)
	return "", nil
}

func (a answers) Confirm(string) (bool, error) { return false, nil }

func (a answers) Choose(q string, options []string, _ int) (int, error) {
	for k, v := range a.choose {
		if strings.Contains(q, k) {
			for i, o := range options {
				if strings.Contains(o, v) {
					return i, nil
				}
			}
		}
	}
	return 0, nil
}

// TestModelConfigureGivesAProviderlessSessionOne: /model configure in a
// workbench started without a model saves the provider and the session runs
// its next turn on it at once.
func TestModelConfigureGivesAProviderlessSessionOne(t *testing.T) {
	home := t.TempDir()
	t.Setenv("PINCER_HOME", home)
	t.Chdir(t.TempDir())
	for _, k := range []string{"PINCER_MODEL", "PINCER_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"} {
		t.Setenv(k, "")
	}
	srv := openaitest.New(openaitest.Reply{Text: "from local"})
	defer srv.Close()
	ctx := context.Background()
	s, err := Prepare(Options{ModelOptional: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Start(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b := &Backend{Agent: r.Agent, Store: r.Store, ModelEnv: DefaultModelEnv, SessionModel: SessionModelResolver(Options{})}
	var notes []string
	mio := ModelIO{Out: io.Discard, Note: func(string) {}, Notify: func(_, text string) { notes = append(notes, text) },
		Prompter: answers{t: t, asks: map[string]string{"Name": "local", "Base URL": srv.BaseURL(), "Model names": "fake-1"},
			choose: map[string]string{"Provider": "OpenAI-compatible", "Wire": "chat"}}}
	cmd, err := b.ModelCommand(r.SessionID, []string{"configure"})
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Run(ctx, mio); err != nil {
		t.Fatalf("/model configure: %v (notes %q)", err, notes)
	}
	if got := r.Agent.ModelName(); got != "local/fake-1" || !strings.Contains(strings.Join(notes, "\n"), "this session uses it now") {
		t.Fatalf("after /model configure the agent runs on %q; notes %q", got, notes)
	}
	res, err := b.Submit(ctx, r.SessionID, "hello")
	if err != nil || res.Outcome != agent.OutcomeCompleted || !strings.Contains(res.FinalText, "from local") {
		t.Fatalf("the turn after /model configure: %+v, %v", res, err)
	}
}
