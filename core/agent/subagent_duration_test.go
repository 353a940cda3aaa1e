package agent

import (
	"context"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/core/provider/providertest"
	"pincer/tools"
)

// NU9: a background subagent's subagent.completed durationMs (and its
// result's duration_ms) is the child's run time, not its launch's.
func TestBackgroundDurationIsRunTime(t *testing.T) {
	release := make(chan struct{})
	slow := &fakeTool{name: "Slow", kind: tools.KindRead, safe: true, run: func(ctx context.Context, input []byte) (tools.Result, error) {
		<-release
		return tools.Result{Output: "slow done"}, nil
	}}
	sp := &testSpawner{tools: []tools.Tool{slow}, provs: map[string]*providertest.Scripted{"bg": {Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("s1", "Slow", `{"x":"1"}`)), providertest.Text("done")}}}}
	parent := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Agent", agentArgs("bg", "Compute.", "general-purpose", `,"run_in_background":true`))),
		providertest.Text("started it"),
	}}
	h := newSubHarness(t, parent, sp)
	if res := h.submit(context.Background(), "start it"); res.Outcome != OutcomeCompleted {
		t.Fatalf("outcome %s: %v", res.Outcome, res.Err)
	}
	const ran = 300 * time.Millisecond
	time.Sleep(ran)
	close(release)
	all, err := h.ag.Subagents().WaitAll(context.Background(), h.sess.ID)
	if err != nil || len(all) != 1 {
		t.Fatalf("WaitAll = %+v, %v", all, err)
	}
	if all[0].Duration < ran {
		t.Errorf("the result's duration %v; the child ran at least %v", all[0].Duration, ran)
	}
	done := eventsOf(h.events(), event.SubagentCompleted)
	if len(done) != 1 {
		t.Fatalf("%d subagent.completed", len(done))
	}
	if ms := mustDecode[event.SubagentCompletedData](t, done[0]).DurationMs; ms < ran.Milliseconds() {
		t.Errorf("subagent.completed durationMs %d; the child ran at least %d", ms, ran.Milliseconds())
	}
}
