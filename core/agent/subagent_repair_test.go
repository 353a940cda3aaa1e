package agent

import (
	"context"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/provider/providertest"
	"pincer/persist"
)

// A process killed during a subagent left the child's turn open (a started
// tool call, its lease held by the dead process) and the parent's log with
// an unanswered subagent.started: the parent's next turn in a new process
// closes the child's turn — one tool.completed per started call, turn.failed,
// status failed — and answers subagent.started in the parent's log.
func TestNextParentTurnClosesAbandonedChild(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, &providertest.Scripted{Steps: []providertest.Step{providertest.Text("again")}}, "")
	// What the killed process had written.
	earlier := message.NewText(message.RoleUser, "earlier")
	earlier.SessionID = h.sess.ID
	if _, err := h.store.AppendMessage(ctx, earlier); err != nil {
		t.Fatal(err)
	}
	child, err := h.ag.CreateLinkedSession(ctx, persist.Session{ParentID: h.sess.ID, ParentToolCallID: "c1", AgentType: "Explore"})
	if err != nil {
		t.Fatal(err)
	}
	child.Status = "running"
	_ = h.store.PutSession(ctx, child)
	log := h.ag.Log()
	emit := func(sess, turn string, typ event.Type, p any) {
		if _, err := log.Emit(ctx, typ, sess, turn, p); err != nil {
			t.Fatal(err)
		}
	}
	emit(h.sess.ID, "turn-old", event.SubagentStarted, event.SubagentStartedData{ToolCallID: "c1", ChildSessionID: child.ID, AgentType: "Explore"})
	emit(child.ID, "turn-kid", event.TurnStarted, event.TurnStartedData{Input: "look"})
	emit(child.ID, "turn-kid", event.ToolStarted, event.ToolStartedData{ToolCallID: "k1", Name: "Read"})
	if ok, _, err := h.store.AcquireLease(ctx, child.ID, "pid:999999999/dead host=h cmd=pincer subagent", time.Minute); !ok || err != nil {
		t.Fatalf("lease: %v %v", ok, err)
	}

	h.submit(ctx, "continue")

	evs, _ := h.store.ListEvents(ctx, child.ID, 0, 0)
	if tc := eventsOf(evs, event.ToolCompleted); len(tc) != 1 || !mustDecode[event.ToolCompletedData](t, tc[0]).IsError {
		t.Fatalf("child's tool.completed: %+v", tc)
	}
	if last := lastEvent(evs); last.Type != event.TurnFailed || last.TurnID != "turn-kid" {
		t.Fatalf("child's last event %s of %s", last.Type, last.TurnID)
	}
	if cs, _ := h.store.GetSession(ctx, child.ID); cs.Status != "failed" {
		t.Errorf("child status %q", cs.Status)
	}
	if _, held, _ := h.store.GetLease(ctx, child.ID); held {
		t.Error("the child's lease is still held")
	}
	done := eventsOf(h.events(), event.SubagentCompleted)
	if len(done) != 1 || mustDecode[event.SubagentCompletedData](t, done[0]).ChildSessionID != child.ID {
		t.Fatalf("parent's subagent.completed: %+v", done)
	}
	if d := mustDecode[event.SubagentCompletedData](t, done[0]); d.Outcome != "failed" {
		t.Errorf("outcome %q", d.Outcome)
	}
}

// A child that a live process holds is left alone.
func TestLiveChildIsNotClosed(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, &providertest.Scripted{Steps: []providertest.Step{providertest.Text("again")}}, "")
	earlier := message.NewText(message.RoleUser, "earlier")
	earlier.SessionID = h.sess.ID
	_, _ = h.store.AppendMessage(ctx, earlier)
	child, _ := h.ag.CreateLinkedSession(ctx, persist.Session{ParentID: h.sess.ID, AgentType: "Explore"})
	_, _ = h.ag.Log().Emit(ctx, event.SubagentStarted, h.sess.ID, "t", event.SubagentStartedData{ChildSessionID: child.ID})
	_, _ = h.ag.Log().Emit(ctx, event.TurnStarted, child.ID, "tk", event.TurnStartedData{})
	_, _, _ = h.store.AcquireLease(ctx, child.ID, "someone-else", time.Minute)
	h.submit(ctx, "continue")
	evs, _ := h.store.ListEvents(ctx, child.ID, 0, 0)
	if lastEvent(evs).Type != event.TurnStarted {
		t.Fatalf("a live child's turn was closed: %s", lastEvent(evs).Type)
	}
}
