package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/persist"
)

// TestResumeFollowsTheSessionModel: resuming a session in the workbench (the
// browser, /resume) runs its turns on the model that session ran on, as
// `pincer --continue` does at start; a model that cannot be used now leaves the
// agent's model and says so in the session's log.
func TestResumeFollowsTheSessionModel(t *testing.T) {
	opts := prepareHere(t)
	t.Setenv("DEEPSEEK_API_KEY", "sk-test-deepseek")
	ctx := context.Background()
	s, err := Prepare(opts)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Start(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	now := time.Now().UTC()
	for id, model := range map[string]string{"s-deep": "deepseek/deepseek-reasoner", "s-gone": "gone/x"} {
		if err := r.Store.PutSession(ctx, persist.Session{ID: id, Cwd: s.Workspace.Root(), Model: model,
			Status: "idle", CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
	}
	b := &Backend{Agent: r.Agent, Store: r.Store, SessionModel: SessionModelResolver(opts)}
	if got := r.Agent.ModelName(); got != "local/m" {
		t.Fatalf("start model %s", got)
	}
	b.Resume(ctx, r.SessionID, "s-deep")
	if got := r.Agent.ModelName(); got != "deepseek/deepseek-reasoner" {
		t.Errorf("after resuming s-deep the agent runs on %s", got)
	}
	b.Resume(ctx, "s-deep", "s-gone")
	if got := r.Agent.ModelName(); got != "deepseek/deepseek-reasoner" {
		t.Errorf("a model that does not resolve replaced the agent's: %s", got)
	}
	evs, err := r.Store.ListEvents(ctx, "s-gone", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	warned := false
	for _, ev := range evs {
		if p, err := ev.Payload(); err == nil && ev.Type == event.Notice {
			warned = warned || strings.Contains(p.(event.NoticeData).Message, "ran on gone/x")
		}
	}
	if !warned {
		t.Errorf("no warning in s-gone's log: %v", evs)
	}
}
