package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"pincer/core/agent"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist"
	"pincer/persist/memory"
	"pincer/sandbox"
	"pincer/tools"
)

// tabAgent is an agent over store in its own workspace (its root
// returned), asking through q.
func tabAgent(t *testing.T, store persist.Store, q *ApprovalQueue, prov *providertest.Scripted) (*agent.Agent, string) {
	t.Helper()
	ws, err := sandbox.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ag, err := agent.New(agent.Config{Store: store, Provider: prov, Model: "m", ModelName: "fake/m",
		Tools: tools.Default(), Workspace: ws, SystemPrompt: "test", PermissionMode: permission.ModeAcceptEdits,
		Approver: q, DeltaInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return ag, ws.Root()
}

// A tab's session in a worktree runs on the agent OpenWorktree built: its
// record names the worktree and branch, Submit runs there (the Write lands
// in the worktree's workspace, not the main one), SetMode reaches both
// agents, and Runner does not take a session the derived agent holds for
// another process's. A session opened without a worktree runs on the
// Backend's own agent; a worktree without OpenWorktree is refused.
func TestOpenSessionRoutesToItsAgent(t *testing.T) {
	store, q := memory.New(), NewApprovalQueue()
	write := func(name string) *providertest.Scripted {
		return &providertest.Scripted{Steps: []providertest.Step{
			providertest.ToolCalls(providertest.ToolCall("c1", "Write", `{"file_path":"`+name+`","content":"x\n"}`)),
			providertest.Text("written"),
		}}
	}
	main, mainRoot := tabAgent(t, store, q, write("main.txt"))
	be := &Backend{Agent: main, Store: store, Approvals: q}
	ctx := context.Background()
	if _, err := be.OpenSession(ctx, "feature"); !errors.Is(err, ErrNoWorktrees) {
		t.Fatalf("a worktree without OpenWorktree: %v, want ErrNoWorktrees", err)
	}
	wt, wtRoot := tabAgent(t, store, q, write("wt.txt"))
	var commits []string // the messages of the worktree's commits
	be.OpenWorktree = func(_ context.Context, name string) (TabWorktree, error) {
		return TabWorktree{Agent: wt, Path: wtRoot, Branch: "pincer/" + name,
			Commit: func(_ context.Context, msg string) error { commits = append(commits, msg); return nil }}, nil
	}
	inWT, err := be.OpenSession(ctx, "feature")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := be.OpenSession(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := store.GetSession(ctx, inWT)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Worktree != wtRoot || rec.Branch != "pincer/feature" || rec.Cwd != wtRoot {
		t.Errorf("the worktree session's record: cwd %q worktree %q branch %q", rec.Cwd, rec.Worktree, rec.Branch)
	}
	for _, c := range []struct{ id, root, file string }{{inWT, wtRoot, "wt.txt"}, {plain, mainRoot, "main.txt"}} {
		res, err := be.Submit(ctx, c.id, "write it")
		if err != nil || res.Outcome != agent.OutcomeCompleted {
			t.Fatalf("Submit %s: %v %+v", c.id, err, res)
		}
		if _, err := os.Stat(filepath.Join(c.root, c.file)); err != nil {
			t.Errorf("%s not written in its session's workspace: %v", c.file, err)
		}
	}
	if _, err := os.Stat(filepath.Join(mainRoot, "wt.txt")); err == nil {
		t.Error("the worktree session's write reached the main workspace")
	}
	if len(commits) != 1 || commits[0] != "pincer: session "+inWT {
		t.Errorf("worktree commits after the two turns: %q, want one for %s", commits, inWT)
	}
	if err := be.SetMode(ctx, plain, permission.ModePlan); err != nil {
		t.Fatal(err)
	}
	if main.Mode() != permission.ModePlan || wt.Mode() != permission.ModePlan {
		t.Errorf("modes after SetMode: main %s, worktree %s", main.Mode(), wt.Mode())
	}
	cleared, err := be.NewSession(ctx, inWT) // /clear in the worktree tab: the next session works there too
	if err != nil {
		t.Fatal(err)
	}
	if rec, err := store.GetSession(ctx, cleared); err != nil || rec.Cwd != wtRoot || rec.Worktree != wtRoot || be.agentFor(cleared) != wt {
		t.Errorf("the session after /clear in a worktree tab: %+v, %v (its agent the worktree's: %v)", rec, err, be.agentFor(cleared) == wt)
	}
	if ok, _, err := store.AcquireLease(ctx, inWT, wt.Owner(), time.Minute); err != nil || !ok {
		t.Fatal(ok, err)
	}
	if runner, err := be.Runner(ctx, inWT); err != nil || runner != "" {
		t.Errorf("Runner of a session this backend's worktree agent holds = %q, %v; want none", runner, err)
	}
}
