package app

import (
	"context"
	"testing"

	"pincer/core/agent"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
)

// TestCommitWorktreeAfterEachTurn (NU6): in a `pincer --worktree`
// workbench (Backend.CommitWorktree set) every turn of a session of the
// Backend's own agent — the first one and a plain new tab's — is followed by
// the worktree's commit, as a worktree tab's turn is by its own; a
// worktree tab's turn commits its own worktree only.
func TestCommitWorktreeAfterEachTurn(t *testing.T) {
	store, q := memory.New(), NewApprovalQueue()
	text := func() *providertest.Scripted {
		return &providertest.Scripted{Steps: []providertest.Step{providertest.Text("one"), providertest.Text("two"), providertest.Text("three")}}
	}
	main, _ := tabAgent(t, store, q, text())
	var own, tab []string
	be := &Backend{Agent: main, Store: store, Approvals: q,
		CommitWorktree: func(_ context.Context, msg string) error { own = append(own, msg); return nil }}
	wt, wtRoot := tabAgent(t, store, q, text())
	be.OpenWorktree = func(_ context.Context, name string) (TabWorktree, error) {
		return TabWorktree{Agent: wt, Path: wtRoot, Branch: "pincer/" + name,
			Commit: func(_ context.Context, msg string) error { tab = append(tab, msg); return nil }}, nil
	}
	ctx := context.Background()
	first, err := main.CreateSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := be.OpenSession(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	inWT, err := be.OpenSession(ctx, "feature")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{first.ID, first.ID, plain, inWT} {
		if res, err := be.Submit(ctx, id, "go"); err != nil || res.Outcome != agent.OutcomeCompleted {
			t.Fatalf("Submit %s: %v %+v", id, err, res)
		}
	}
	want := []string{"pincer: session " + first.ID, "pincer: session " + first.ID, "pincer: session " + plain}
	if len(own) != len(want) || own[0] != want[0] || own[1] != want[1] || own[2] != want[2] {
		t.Errorf("the --worktree commits: %q, want %q", own, want)
	}
	if len(tab) != 1 || tab[0] != "pincer: session "+inWT {
		t.Errorf("the worktree tab's commits: %q", tab)
	}
}
