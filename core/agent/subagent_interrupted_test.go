package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/provider/providertest"
	"pincer/persist"
)

// NU2: a background subagent and a background shell of the parent, both left
// running by a killed process: the parent's next turn (a new process) tells
// its model, in a system reminder of its first model call, that the agent
// was interrupted (its result will not arrive) and that the shells ended —
// the parent's and the child's — and records their shell.exited.
func TestInterruptedBackgroundChildIsReminded(t *testing.T) {
	ctx := context.Background()
	prov := &providertest.Scripted{Steps: []providertest.Step{providertest.Text("noted")}}
	h := newHarness(t, prov, "")
	earlier := message.NewText(message.RoleUser, "earlier")
	earlier.SessionID = h.sess.ID
	if _, err := h.store.AppendMessage(ctx, earlier); err != nil {
		t.Fatal(err)
	}
	child, err := h.ag.CreateLinkedSession(ctx, persist.Session{ParentID: h.sess.ID, ParentToolCallID: "c1", AgentType: "general-purpose"})
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
	emit(h.sess.ID, "turn-old", event.SubagentStarted, event.SubagentStartedData{ToolCallID: "c1", ChildSessionID: child.ID,
		AgentType: "general-purpose", Description: "count lines", Background: true})
	emit(h.sess.ID, "", event.ShellStarted, event.ShellStartedData{ShellID: "bash_1", Command: "python3 -m http.server"})
	emit(h.sess.ID, "", event.ShellStarted, event.ShellStartedData{ShellID: "bash_2", Command: "true"})
	emit(h.sess.ID, "", event.ShellExited, event.ShellExitedData{ShellID: "bash_2", Reason: "exited"})
	emit(child.ID, "turn-kid", event.TurnStarted, event.TurnStartedData{Input: "count"})
	emit(child.ID, "", event.ShellStarted, event.ShellStartedData{ShellID: "bash_1", Command: "sleep 100"})
	if ok, _, err := h.store.AcquireLease(ctx, child.ID, "pid:999999999/dead host=h cmd=pincer subagent", time.Minute); !ok || err != nil {
		t.Fatalf("lease: %v %v", ok, err)
	}

	if res := h.submit(ctx, "what happened?"); res.Outcome != OutcomeCompleted {
		t.Fatalf("outcome %s: %v", res.Outcome, res.Err)
	}
	req := prov.Request(0)
	for _, want := range []string{
		"Background agent " + child.ID + " (general-purpose: count lines) was interrupted",
		"Its background shell bash_1 (sleep 100) ended with that process",
		"Background shell bash_1 (python3 -m http.server) ended with the pincer process",
	} {
		if !reqHas(req, want) {
			t.Errorf("the parent's first model call lacks %q", want)
		}
	}
	if reqHas(req, "bash_2") {
		t.Error("a shell that exited is reported as ended with the process")
	}
	exited := func(id string) []event.ShellExitedData {
		evs, _ := h.store.ListEvents(ctx, id, 0, 0)
		var out []event.ShellExitedData
		for _, ev := range eventsOf(evs, event.ShellExited) {
			if d := mustDecode[event.ShellExitedData](t, ev); d.Reason == ShellProcessEnded {
				out = append(out, d)
			}
		}
		return out
	}
	if got := exited(h.sess.ID); len(got) != 1 || got[0].ShellID != "bash_1" {
		t.Errorf("the parent's process_ended shell.exited: %+v", got)
	}
	if got := exited(child.ID); len(got) != 1 || got[0].ShellID != "bash_1" {
		t.Errorf("the child's process_ended shell.exited: %+v", got)
	}
	// Told once: the next turn's call has no second copy.
	prov.Steps = append(prov.Steps, providertest.Text("ok"))
	h.submit(ctx, "and now?")
	var n int
	for _, m := range prov.Request(1).Messages {
		n += strings.Count(m.Text(), "was interrupted")
	}
	if n != 1 {
		t.Errorf("the interruption is in the transcript %d times", n)
	}
}
