package e2e

import (
	"strconv"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/core/provider/openai/openaitest"
)

// F6: `pincer run --max-turns 2` with a lead that starts a background Agent
// at every model call, and children that take long: the lead makes at most
// 2 model calls (no follow-up rounds past the budget), each child at most 2,
// and after the run every child's start in the lead's log has its
// subagent.completed and no session is left running.
func TestMaxTurnsBoundsBackgroundSubagents(t *testing.T) {
	var replies []openaitest.Reply
	for i := range 8 {
		id := strconv.Itoa(i)
		replies = append(replies,
			openaitest.Reply{When: "spawn each turn", ToolCalls: []openaitest.Call{
				agentCall("b"+id, "general-purpose", "loop "+id, "LOOP-TASK "+id, `,"run_in_background":true`)}},
			openaitest.Reply{When: "LOOP-TASK", Text: "child " + id + " done", Hold: 1500 * time.Millisecond})
	}
	e := newEnv(t, replies...)
	_, stderr, _ := e.run(e.runArgs("--max-turns", "2", "spawn each turn")...)
	if n := len(requestsWith(e, "spawn each turn")); n > 2 {
		t.Errorf("the lead made %d model calls under --max-turns 2\n%s", n, stderr)
	}
	var lead string
	for _, s := range sessionsJSON(t, e) {
		if s.ParentID == "" {
			lead = s.ID
		}
		if s.Status == "running" {
			t.Errorf("session %s (%s) is still running after the run", s.ID, s.AgentType)
		}
	}
	open := map[string]bool{}
	for _, ev := range showJSON(t, e, lead).Events {
		p, _ := ev.Payload()
		switch d := p.(type) {
		case event.SubagentStartedData:
			open[d.ChildSessionID] = true
		case event.SubagentCompletedData:
			delete(open, d.ChildSessionID)
		}
	}
	if len(open) != 0 {
		t.Errorf("%d children have no subagent.completed: %v", len(open), open)
	}
	if n := len(requestsWith(e, "LOOP-TASK")); n > 2*2 {
		t.Errorf("the children made %d model calls", n)
	}
}
