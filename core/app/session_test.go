package app

import (
	"context"
	"errors"
	"strings"
	"testing"

	"pincer/core/message"
)

// prepareHere gives a private PINCER_HOME and workspace, with a model that
// resolves without a key (an OpenAI-compatible URL of its own).
func prepareHere(t *testing.T) Options {
	t.Helper()
	t.Setenv("PINCER_HOME", t.TempDir())
	t.Chdir(t.TempDir())
	return Options{Model: "local/m", BaseURL: "http://127.0.0.1:9/v1"}
}

// TestDiscardIfUnused: a workbench opened and closed without a prompt leaves no
// session for --continue to pick; a session with a message, or a continued one,
// is kept.
func TestDiscardIfUnused(t *testing.T) {
	opts := prepareHere(t)
	ctx := context.Background()
	start := func(o Options) *Run {
		t.Helper()
		s, err := Prepare(o)
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.Start(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		return r
	}
	empty := start(opts)
	if gone, err := empty.DiscardIfUnused(ctx); !gone || err != nil {
		t.Fatalf("an unused session was kept (%v)", err)
	}
	if list, _ := empty.Store.ListSessions(ctx, 0); len(list) != 0 {
		t.Fatalf("sessions after discarding the unused one: %v", list)
	}
	empty.Close()

	used := start(opts)
	m := message.NewText(message.RoleUser, "hello")
	m.SessionID = used.SessionID
	if _, err := used.Store.AppendMessage(ctx, m); err != nil {
		t.Fatal(err)
	}
	if gone, _ := used.DiscardIfUnused(ctx); gone {
		t.Fatal("a session with a message was deleted")
	}
	used.Close()

	cont := opts
	cont.Continue = true
	again := start(cont)
	if again.SessionID != used.SessionID {
		t.Fatalf("--continue picked %s, want %s", again.SessionID, used.SessionID)
	}
	if gone, _ := again.DiscardIfUnused(ctx); gone {
		t.Fatal("a continued session was deleted")
	}
}

// TestContinueWithoutSession: --continue or --session naming no session stops
// before anything opens, with a *SessionError, even for the workbench (which
// otherwise opens without a model).
func TestContinueWithoutSession(t *testing.T) {
	opts := prepareHere(t)
	for _, o := range []Options{{Continue: true}, {Session: "nope"}, {Continue: true, ModelOptional: true, FailClosed: true}} {
		o.Model, o.BaseURL = opts.Model, opts.BaseURL
		_, err := Prepare(o)
		var se *SessionError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), "no session") {
			t.Errorf("%+v: %v, want a SessionError", o, err)
		}
	}
}
