package agent

import (
	"context"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
)

// F6: the process ending (Run.Close: Subagents.EndAll) with a background
// child running records the child's end before it returns — subagent.completed
// (cancelled) in the parent's log, the child's session not running.
func TestEndAllRecordsRunningChildren(t *testing.T) {
	block := &providertest.Scripted{Steps: []providertest.Step{{Events: []provider.Event{{Type: provider.EventTextDelta, Text: "thinking"}}, Block: true}}}
	sp := &testSpawner{provs: map[string]*providertest.Scripted{"bg": block}}
	parent := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Agent", agentArgs("bg", "Wait.", "general-purpose", `,"run_in_background":true`))),
		providertest.Text("started it"),
	}}
	h := newSubHarness(t, parent, sp)
	if res := h.submit(context.Background(), "go"); res.Outcome != OutcomeCompleted {
		t.Fatalf("outcome %s: %v", res.Outcome, res.Err)
	}
	waitUntil(t, "the child's model call", func() bool { return block.Calls() > 0 })
	kids := h.ag.Subagents().Running(h.sess.ID)
	if len(kids) != 1 {
		t.Fatalf("running children %+v", kids)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h.ag.Subagents().EndAll(ctx)
	done := eventsOf(h.events(), event.SubagentCompleted)
	if len(done) != 1 || mustDecode[event.SubagentCompletedData](t, done[0]).Outcome != string(OutcomeCancelled) {
		t.Fatalf("subagent.completed after EndAll: %+v", done)
	}
	if s, _ := h.store.GetSession(context.Background(), kids[0].SessionID); s.Status == "running" {
		t.Errorf("the child session is %q after EndAll", s.Status)
	}
	if n := len(h.ag.Subagents().Running(h.sess.ID)); n != 0 {
		t.Errorf("%d children running after EndAll", n)
	}
}
