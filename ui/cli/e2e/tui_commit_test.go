package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// TestBuiltinCommitThroughTheApprovalQueue: /commit typed in the workbench
// (tmux, the real binary) expands with the repository's real diff; the
// scripted model answers with a Bash git commit, which waits in the approval
// queue until y, and then the commit is in git log.
func TestBuiltinCommitThroughTheApprovalQueue(t *testing.T) {
	e := newEnv(t, commitReplies()...)
	commitRepo(t, e)
	tm := newTmux(t, 100, 30, workbenchScript(t, e, "commit"))
	tm.waitText("1 Transcript", "· idle")
	tm.typeText("/commit")
	tm.keys("Enter")
	sc := tm.waitText("3 Approvals (1)")
	if n := strings.Count(e.git("log", "--oneline"), "\n"); n != 1 {
		t.Fatalf("%d commits before the approval\n%s", n, sc)
	}
	firstRequestHas(t, e)
	time.Sleep(700 * time.Millisecond) // the request on screen 400 ms before an answer counts
	tm.keys("y")
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(e.git("log", "--oneline"), "feat: greet pincer") {
		if time.Now().After(deadline) {
			t.Fatalf("no commit after y:\n%s\n%s", e.git("log", "--oneline"), tm.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
	tm.waitText("committed")
	if st := e.git("status", "--short"); strings.TrimSpace(st) != "" {
		t.Errorf("the commit left changes: %q", st)
	}
}

// TestBuiltinUpdateConfigAsksAndChecks: /update-config in the workbench sends
// the config files' paths and text; the model's ConfigEdit of the user
// config.toml (outside the workspace) waits in the approval queue with its
// diff, lands after y, and a second edit that breaks the file is reported to
// the model at once (NO LONGER PARSES, FILE:LINE).
func TestBuiltinUpdateConfigAsksAndChecks(t *testing.T) {
	e := newEnv(t)
	user := filepath.Join(e.home, "config.toml")
	mustWrite(t, user, "# mine\n", 0o600)
	e.fake.Push(
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "u1", Name: "ConfigEdit",
			Args: `{"file":"` + user + `","old_string":"# mine","new_string":"# mine\n[workbench]\nwide_columns = 300"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "u2", Name: "ConfigEdit",
			Args: `{"file":"` + user + `","old_string":"wide_columns = 300","new_string":"wide_columns = = 300"}`}}},
		openaitest.Reply{Text: "changed"},
	)
	tm := newTmux(t, 100, 30, workbenchScript(t, e, "uc", "--permission-mode", "bypassPermissions"))
	tm.waitText("1 Transcript", "· idle")
	tm.typeText("/update-config make the columns wider")
	tm.keys("Enter")
	tm.waitText("3 Approvals (1)", "+wide_columns = 300")
	sent := requestText(t, e.fake.Requests()[0])
	for _, want := range []string{"Change pincer's configuration", "make the columns wider", user, "# mine"} {
		if !strings.Contains(sent, want) {
			t.Errorf("the request lacks %q", want)
		}
	}
	if b, _ := os.ReadFile(user); string(b) != "# mine\n" {
		t.Fatalf("written before approval (bypassPermissions): %q", b)
	}
	time.Sleep(700 * time.Millisecond)
	tm.keys("y")
	tm.waitText("3 Approvals (1)", "+wide_columns = = 300")
	if b, _ := os.ReadFile(user); string(b) != "# mine\n[workbench]\nwide_columns = 300\n" {
		t.Fatalf("after y: %q", b)
	}
	time.Sleep(700 * time.Millisecond)
	tm.keys("y")
	tm.waitText("changed")
	reqs := e.fake.Requests()
	last, _ := json.Marshal(reqs[len(reqs)-1]["messages"])
	if !strings.Contains(string(last), "NO LONGER PARSES") || !strings.Contains(string(last), user+":3") {
		t.Errorf("the broken file was not reported to the model:\n%s", last)
	}
}
