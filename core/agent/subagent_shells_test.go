package agent

import (
	"context"
	"strings"
	"testing"

	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
)

// A subagent's background shell ends with its run (session_ended in the
// child's log), and the parent cannot reach it by its ID meanwhile.
func TestSubagentShellsEndWithItsRun(t *testing.T) {
	child := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("b1", "Bash", `{"command":"sleep 60","run_in_background":true}`)),
		providertest.Text("left a shell"),
	}}
	sp := &testSpawner{provs: map[string]*providertest.Scripted{"serve": child}, tools: shellTools()}
	parent := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Agent", agentArgs("serve", "Start a server.", "general-purpose", ""))),
		providertest.ToolCalls(providertest.ToolCall("o1", "BashOutput", `{"bash_id":"bash_1"}`)),
		providertest.Text("done"),
	}}
	h := newSubHarness(t, parent, sp, shellTools()...)
	h.ag.SetPermissionMode(permission.ModeBypass)
	h.submit(context.Background(), "go")
	if r := h.toolResults()["o1"]; !r.IsError || !strings.Contains(r.Text, "no background shell") {
		t.Errorf("the parent read its child's shell: %q", r.Text)
	}
	sessions, err := h.store.ListSessions(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range sessions {
		if s.ParentID != h.sess.ID {
			continue
		}
		evs, _ := h.store.ListEvents(context.Background(), s.ID, 0, 0)
		started, exited := eventsOf(evs, event.ShellStarted), eventsOf(evs, event.ShellExited)
		if len(started) != 1 || len(exited) != 1 || mustDecode[event.ShellExitedData](t, exited[0]).Reason != "session_ended" {
			t.Errorf("child's shell events: started %d, exited %v", len(started), exited)
		}
		found = true
	}
	if !found {
		t.Fatal("no child session")
	}
}
