package app

import (
	"testing"

	"pincer/sandbox"
)

// TestLSPExecutorConfinesReads: language servers run with their reads
// confined wherever Landlock can confine them (red team r21b: gopls read a
// link the model made and quoted the outside file); not under a policy
// that cannot, and not at all without a sandbox.
func TestLSPExecutorConfinesReads(t *testing.T) {
	ws, err := sandbox.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if lspExecutor(nil, ws) != nil {
		t.Error("an executor without a sandbox policy")
	}
	pol := sandbox.DefaultPolicy()
	ex := lspExecutor(&pol, ws)
	can := (&sandbox.Executor{Policy: pol, Workspace: ws}).CanConfineReads() == nil
	if ex == nil || ex.Policy.ConfineReads != can {
		t.Errorf("ConfineReads = %v where the machine can confine reads: %v", ex != nil && ex.Policy.ConfineReads, can)
	}
	if pol.ConfineReads {
		t.Error("the session's own policy was changed")
	}
	if !can {
		t.Skip("Landlock unavailable: the confined case is not checked here")
	}
}
