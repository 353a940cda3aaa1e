package app

import (
	"context"
	"testing"

	"pincer/core/permission"
	"pincer/sandbox"
	"pincer/tools"
)

// A derived agent shares the Run's store and log, and takes the spec's
// workspace, tools, prompt and mode; zero fields keep the Run's.
func TestDeriveAgent(t *testing.T) {
	opts := prepareHere(t)
	opts.Mode = permission.ModeAcceptEdits
	s, err := Prepare(opts)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Start(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ws, err := sandbox.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	child, err := r.DeriveAgent(AgentSpec{Workspace: ws, Tools: tools.NewRegistry(tools.Typed(tools.Read{})), Mode: permission.ModePlan})
	if err != nil {
		t.Fatal(err)
	}
	if child.Log() != r.Agent.Log() || child.Store() != r.Store {
		t.Fatal("the derived agent does not share the run's log and store")
	}
	if child.ShellQuota() != r.Agent.ShellQuota() {
		t.Fatal("the derived agent does not share the run's background-shell quota")
	}
	if child.Mode() != permission.ModePlan {
		t.Fatalf("mode %s, want plan", child.Mode())
	}
	sess, err := child.CreateSession(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if sess.Cwd != ws.Root() {
		t.Fatalf("derived session in %s, want %s", sess.Cwd, ws.Root())
	}
	same, err := r.DeriveAgent(AgentSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if same.Mode() != permission.ModeAcceptEdits {
		t.Fatalf("a zero spec changed the mode to %s", same.Mode())
	}
}
