package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTaintEndsUnvouchedCommands: an unvouched command running unconfined (no
// sandbox here, so nothing confines it) — in the foreground and as a
// background shell — is ended by a taint of its workspace before TaintReads
// returns: the marker each would write a moment later never appears, and
// each says why it ended. A vouched one (the person's) runs on.
func TestTaintEndsUnvouchedCommands(t *testing.T) {
	env, root, _ := bgEnv(t)
	env.Unvouched = true
	cmd := func(name string) string { return "sleep 1; touch " + name + "; sleep 30" }
	bgID := startShell(t, env, cmd("PROOF_bg"))
	vouched := *env
	vouched.Unvouched = false
	personsID := startShell(t, &vouched, "sleep 1; touch PERSONS; sleep 30")

	fg := make(chan Result, 1)
	go func() {
		res, err := runTool(t, Bash{KillGrace: 200 * time.Millisecond}, env, BashInput{Command: cmd("PROOF_fg")})
		if err != nil {
			t.Error(err)
		}
		fg <- res
	}()
	time.Sleep(300 * time.Millisecond) // both unvouched commands are running
	env.Workspace.TaintReads()         // returns once both have ended: their markers never appear (below)
	select {
	case res := <-fg:
		if !strings.Contains(res.Output, TaintEndedNote) || !res.IsError {
			t.Errorf("the foreground command's result does not say a taint ended it: %q", res.Output)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the foreground command's call did not return after the taint")
	}
	if info, err := env.Shells.Info(bgID); err != nil || info.Running || info.Reason != ShellTainted {
		t.Errorf("the background shell after TaintReads: %+v, %v; want ended, reason %s", info, err, ShellTainted)
	}
	if out := readShell(t, env, bgID, ""); !strings.Contains(out, TaintEndedNote) || !strings.Contains(out, "<status>killed</status>") {
		t.Errorf("BashOutput does not say a taint ended the shell: %q", out)
	}
	time.Sleep(1500 * time.Millisecond)
	for _, m := range []string{"PROOF_fg", "PROOF_bg"} {
		if _, err := os.Stat(filepath.Join(root, m)); err == nil {
			t.Errorf("%s exists: the command ran on after the taint", m)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "PERSONS")); err != nil {
		t.Errorf("the person's own background shell did not run on: %v", err)
	}
	if info, _ := env.Shells.Info(personsID); !info.Running {
		t.Errorf("the person's own background shell was ended: %+v", info)
	}

	// Started after the taint, an unvouched command must be confined, and
	// cannot be without a sandbox: it does not run.
	_, err := runTool(t, Bash{}, env, BashInput{Command: "touch PROOF_late"})
	if err == nil || !strings.Contains(err.Error(), "confined") {
		t.Errorf("an unvouched command after the taint, no sandbox: err %v, want the unconfinable error", err)
	}
	if _, err := runTool(t, Bash{}, env, BashInput{Command: "touch PROOF_late", RunInBackground: true}); err == nil {
		t.Error("an unvouched background shell after the taint ran without a sandbox")
	}
	if _, err := os.Stat(filepath.Join(root, "PROOF_late")); err == nil {
		t.Error("PROOF_late exists: an unvouched command ran unconfined after the taint")
	}
}
