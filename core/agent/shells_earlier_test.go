package agent

import (
	"context"
	"strings"
	"testing"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
)

// TestEarlierProcessesShellsToldTheTruth: a session's earlier processes ran
// bash_1 (exited by itself), bash_2 (ended with its process) and bash_3
// (its process was killed, nothing recorded its end); BashOutput and
// KillShell of each in this process say the shell belonged to an earlier
// run and how it ended, not that no such shell exists (new user r23 #1),
// and an ID nobody gave out is still unknown.
func TestEarlierProcessesShellsToldTheTruth(t *testing.T) {
	ctx := context.Background()
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(
			providertest.ToolCall("o1", "BashOutput", `{"bash_id":"bash_1"}`),
			providertest.ToolCall("o2", "BashOutput", `{"bash_id":"bash_2"}`),
			providertest.ToolCall("o3", "BashOutput", `{"bash_id":"bash_3"}`),
			providertest.ToolCall("o9", "BashOutput", `{"bash_id":"bash_9"}`)),
		providertest.ToolCalls(providertest.ToolCall("k2", "KillShell", `{"shell_id":"bash_2"}`)),
		providertest.ToolCalls(providertest.ToolCall("k3", "KillShell", `{"shell_id":"bash_3"}`)),
		providertest.Text("done"),
	}}
	h := newHarness(t, prov, permission.ModeBypass, shellTools()...)
	h.earlierRun(ctx,
		event.ShellStartedData{ShellID: "bash_1", Command: "make"},
		event.ShellExitedData{ShellID: "bash_1", Reason: "exited", ExitCode: 2},
		event.ShellStartedData{ShellID: "bash_2", Command: "npm run dev"},
		event.ShellExitedData{ShellID: "bash_2", Reason: "session_ended", ExitCode: 143},
		event.ShellStartedData{ShellID: "bash_3", Command: "tail -f log"},
	)
	h.submit(ctx, "how are they?")
	got := h.toolResults()
	for id, want := range map[string][]string{
		"o1": {"<status>failed</status>", "<exit_code>2</exit_code>", "Shell bash_1 belonged to an earlier pincer run of this session; it had exited by itself (exit code 2) before that run ended."},
		"o2": {"<status>killed</status>", "<exit_code>143</exit_code>", "Shell bash_2 belonged to an earlier pincer run of this session and was ended when that run ended."},
		"o3": {"<status>killed</status>", "Shell bash_3 belonged to an earlier pincer run of this session and was ended when that run ended."},
		"k2": {"Shell bash_2 is not running.", "was ended when that run ended"},
		"k3": {"Shell bash_3 is not running.", "was ended when that run ended"},
	} {
		r := got[id]
		if r.IsError {
			t.Errorf("%s is an error: %q", id, r.Text)
		}
		for _, w := range want {
			if !strings.Contains(r.Text, w) {
				t.Errorf("%s: %q lacks %q", id, r.Text, w)
			}
		}
		if !strings.Contains(r.Text, "its output was not kept") {
			t.Errorf("%s does not say the output is gone: %q", id, r.Text)
		}
	}
	if r := got["o9"]; !r.IsError || !strings.Contains(r.Text, "no background shell with that ID") {
		t.Errorf("an ID nobody gave out: %q", r.Text)
	}
}

// earlierRun makes h's session look run by an earlier pincer process: a user
// message in the transcript, then shells (event.ShellStartedData and
// event.ShellExitedData) in its log, in order.
func (h *harness) earlierRun(ctx context.Context, shells ...any) {
	h.t.Helper()
	earlier := message.NewText(message.RoleUser, "earlier")
	earlier.SessionID = h.sess.ID
	if _, err := h.store.AppendMessage(ctx, earlier); err != nil {
		h.t.Fatal(err)
	}
	for _, d := range shells {
		typ := event.ShellStarted
		if _, ok := d.(event.ShellExitedData); ok {
			typ = event.ShellExited
		}
		if _, err := h.ag.Log().Emit(ctx, typ, h.sess.ID, "", d); err != nil {
			h.t.Fatal(err)
		}
	}
}
