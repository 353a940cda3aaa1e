package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/core/app"
	"pincer/core/event"
	"pincer/core/provider/providertest"
)

// TestReopenShowsADeadTurnsRequestAsInterrupted: a session whose log stops
// while a request waited (the process died) opens with an empty queue, the
// request shown as interrupted, the turn as interrupted; answering it says
// nothing waits.
func TestReopenShowsADeadTurnsRequestAsInterrupted(t *testing.T) {
	b := startBench(t, 160, 50, Options{})
	ag, _ := newTestAgent(t, &providertest.Scripted{})
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	emit := func(typ event.Type, turn string, p any) {
		if _, err := ag.Log().Emit(t.Context(), typ, s.ID, turn, p); err != nil {
			t.Fatal(err)
		}
	}
	emit(event.TurnStarted, "t1", event.TurnStartedData{Input: "edit it"})
	emit(event.PermissionRequested, "t1", event.PermissionRequestedData{RequestID: "r1", ToolCallID: "c1",
		Name: "Edit", Summary: "Edit a.go", Reason: "edits ask"})
	b.w.Attach(backendOf(ag), s.ID)
	st := b.waitText("3 Approvals (0)", "↯ Edit a.go", "interrupted", shortID(s.ID)+" · interrupted")
	if y, _ := rowOf(st, "awaiting approval"); y >= 0 {
		t.Errorf("still shown as awaiting approval:\n%s", st)
	}
	b.key(tcell.KeyRune, '3', tcell.ModAlt)
	b.afterReading("y")
	b.waitText("nothing waits for this answer")
	b.waitText("Outcome: interrupted") // the diff pane explains it
}

// TestEscResolvesPendingRequests: Esc cancels the turn, and the request it
// waited on is resolved by the Approver as a denial nobody gave (by
// event.ByUnanswered, "not answered (turn cancelled)"), not as the person's.
func TestEscResolvesPendingRequests(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Write", `{"file_path":"n.txt","content":"x\n"}`)),
	}}
	b, ag, sid, _ := attached(t, 160, 50, prov)
	b.send("write")
	b.waitText("3 Approvals (1)")
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.waitModel("the cancellation", func(m *Model) bool { return m.Status.Turn == TurnCancelled })
	b.waitText("3 Approvals (0)")
	var resolved []event.PermissionResolvedData
	for _, ev := range events(t, ag, sid) {
		if ev.Type == event.PermissionResolved {
			var d event.PermissionResolvedData
			_ = ev.Decode(&d)
			resolved = append(resolved, d)
		}
	}
	if len(resolved) != 1 || resolved[0].Decision != "deny" || resolved[0].Reason != app.CancelledReason ||
		resolved[0].By != event.ByUnanswered {
		t.Fatalf("resolutions = %+v: want a denial nobody gave (by %q)", resolved, event.ByUnanswered)
	}
	b.model(func(m *Model) {
		if e, _ := m.Tool("c1"); e.Status != ToolUnanswered {
			t.Errorf("tool = %+v", e)
		}
		if len(m.History) != 1 || m.History[0].Outcome != OutcomeInterrupted || m.History[0].Detail != app.CancelledReason {
			t.Errorf("history = %+v", m.History)
		}
	})
	b.waitText("not answered (turn cancelled)")
	if strings.Contains(b.text(), "n.txt  denied") || strings.Contains(b.text(), "denied (user)") {
		t.Errorf("the unanswered request is shown as a denial:\n%s", b.text())
	}
}
