package agent

import (
	"context"
	"strings"
	"testing"

	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/tools"
)

// shellTools are the tools of a background shell.
func shellTools() []tools.Tool {
	return []tools.Tool{tools.Typed(tools.Bash{}), tools.Typed(tools.BashOutput{}), tools.Typed(tools.KillShell{})}
}

// TestBackgroundShellThroughTheLoop: a turn starts a background shell, a
// later call of the turn reads its output (a repeated BashOutput is not a
// duplicate), the events say when it started and ended; another session of
// the same Agent sees none of it; CloseShells ends what is left.
func TestBackgroundShellThroughTheLoop(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("b1", "Bash", `{"command":"echo A-out; touch ready; sleep 60","run_in_background":true}`)),
		providertest.ToolCalls(providertest.ToolCall("w1", "Bash", `{"command":"until [ -e ready ]; do sleep 0.02; done; sleep 0.2"}`)),
		providertest.ToolCalls(providertest.ToolCall("o1", "BashOutput", `{"bash_id":"bash_1"}`)),
		providertest.ToolCalls(providertest.ToolCall("o2", "BashOutput", `{"bash_id":"bash_1"}`)),
		providertest.Text("A is done."),
		// Session B: the same ID names nothing of its own.
		providertest.ToolCalls(providertest.ToolCall("x1", "BashOutput", `{"bash_id":"bash_1"}`), providertest.ToolCall("x2", "KillShell", `{"shell_id":"bash_1"}`)),
		providertest.Text("B is done."),
	}}
	h := newHarness(t, prov, permission.ModeBypass, shellTools()...)
	h.submit(context.Background(), "start a shell")
	res := h.toolResults()
	if !strings.Contains(res["b1"].Text, "bash_id: bash_1") {
		t.Fatalf("Bash in the background: %q", res["b1"].Text)
	}
	if !strings.Contains(res["o1"].Text, "A-out") || !strings.Contains(res["o1"].Text, "<status>running</status>") {
		t.Errorf("first BashOutput: %q", res["o1"].Text)
	}
	if !strings.Contains(res["o2"].Text, "(no new output)") {
		t.Errorf("a repeated BashOutput: %q", res["o2"].Text)
	}
	started := eventsOf(h.events(), event.ShellStarted)
	if len(started) != 1 {
		t.Fatalf("%d shell.started events", len(started))
	}
	if d := mustDecode[event.ShellStartedData](t, started[0]); d.ShellID != "bash_1" || d.ToolCallID != "b1" || !strings.Contains(d.Command, "A-out") {
		t.Errorf("shell.started %+v", d)
	}

	other, err := h.ag.CreateSession(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.ag.SubmitTurn(context.Background(), other.ID, "peek"); err != nil {
		t.Fatal(err)
	}
	msgs, _ := h.store.ListMessages(context.Background(), other.ID)
	for _, m := range msgs {
		if r, ok := m.ToolResult(); ok && (!r.IsError || !strings.Contains(r.Text, "no background shell")) {
			t.Errorf("another session's call %s reached the shell: %q", r.ToolCallID, r.Text)
		}
	}
	if err := h.ag.KillShell(other.ID, "bash_1"); err == nil {
		t.Error("KillShell of another session's shell ID succeeded")
	}
	if sh := h.ag.Shells(h.sess.ID); len(sh) != 1 || !sh[0].Running {
		t.Fatalf("session A's shells after B's attempts: %+v", sh)
	}

	if err := h.ag.KillShell(h.sess.ID, "bash_1"); err != nil {
		t.Fatal(err)
	}
	exited := eventsOf(h.events(), event.ShellExited)
	if len(exited) != 1 || mustDecode[event.ShellExitedData](t, exited[0]).Reason != "killed" {
		t.Fatalf("shell.exited after KillShell: %v", exited)
	}
}

// TestCloseShellsEndsTheSessions: CloseShells ends every running shell of
// every session with session_ended, and no shell starts afterwards.
func TestCloseShellsEndsTheSessions(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("b1", "Bash", `{"command":"sleep 60","run_in_background":true}`)),
		providertest.Text("started"),
		providertest.ToolCalls(providertest.ToolCall("b2", "Bash", `{"command":"sleep 61","run_in_background":true}`)),
		providertest.Text("refused"),
	}}
	h := newHarness(t, prov, permission.ModeBypass, shellTools()...)
	h.submit(context.Background(), "start")
	h.ag.CloseShells()
	exited := eventsOf(h.events(), event.ShellExited)
	if len(exited) != 1 || mustDecode[event.ShellExitedData](t, exited[0]).Reason != "session_ended" {
		t.Fatalf("shell.exited after CloseShells: %v", exited)
	}
	h.submit(context.Background(), "start another")
	if r := h.toolResults()["b2"]; !r.IsError || !strings.Contains(r.Text, "ending") {
		t.Errorf("a shell started after CloseShells: %q", r.Text)
	}
}

// TestShellIDsContinueAfterEarlierProcesses: a session an earlier process
// ran gave out bash_1 and bash_2 (shell.started in its log); this process's
// first background shell is bash_3, not a second bash_1 (new user r21).
func TestShellIDsContinueAfterEarlierProcesses(t *testing.T) {
	ctx := context.Background()
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("b1", "Bash", `{"command":"true","run_in_background":true}`)),
		providertest.Text("done"),
	}}
	h := newHarness(t, prov, permission.ModeBypass, shellTools()...)
	h.earlierRun(ctx,
		event.ShellStartedData{ShellID: "bash_1", Command: "sleep 1"},
		event.ShellExitedData{ShellID: "bash_1", Reason: "exited"},
		event.ShellStartedData{ShellID: "bash_2", Command: "sleep 2"},
	)
	h.submit(ctx, "start a shell")
	if got := h.toolResults()["b1"].Text; !strings.Contains(got, "bash_id: bash_3") {
		t.Errorf("the first shell of this process: %q, want bash_3", got)
	}
}
