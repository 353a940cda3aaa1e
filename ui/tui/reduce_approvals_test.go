package tui

import (
	"reflect"
	"testing"

	"pincer/core/event"
	"pincer/ui/tui/transcript"
)

func TestApprovalHistory(t *testing.T) {
	m := applyAll(sampleTurn(t))
	if len(m.History) != 2 {
		t.Fatalf("history = %+v", m.History)
	}
	r1, r2 := m.History[0], m.History[1]
	if r1.RequestID != "r1" || r1.Outcome != OutcomeAllow || r1.Scope != "once" || r1.By != "user" || r1.Summary != "Edit a.go" {
		t.Errorf("r1 = %+v", r1)
	}
	if r2.RequestID != "r2" || r2.Outcome != OutcomeDeny || r2.Detail != "no" {
		t.Errorf("r2 = %+v", r2)
	}
	if len(m.InterruptedNow()) != 0 {
		t.Errorf("interrupted = %+v", m.InterruptedNow())
	}
}

// askingTurn is a turn that asked about an Edit and streamed some text, then
// (when end is set) ended without the request being answered.
func askingTurn(t *testing.T, end event.Type) []event.Event {
	r := &recorder{t: t}
	r.add(event.SessionCreated, "", event.SessionCreatedData{Cwd: "/w", Model: "fake/m"}).
		add(event.TurnStarted, "t1", event.TurnStartedData{Input: "edit it"}).
		add(event.MessageDelta, "t1", event.MessageDeltaData{MessageID: "m1", Delta: "Editing", Kind: "text"}).
		add(event.PermissionRequested, "t1", event.PermissionRequestedData{RequestID: "r1", ToolCallID: "c1", Name: "Edit", Summary: "Edit a.go", Reason: "edits ask"})
	switch end {
	case event.TurnCompleted:
		r.add(end, "t1", event.TurnCompletedData{StopReason: "stop"})
	case event.TurnFailed:
		r.add(end, "t1", event.TurnFailedData{Error: "boom", Reason: "internal"})
	}
	return r.evs
}

// TestUnansweredRequestOfAnEndedTurnIsInterrupted: a turn end with a request
// still pending shows it as interrupted, not pending.
func TestUnansweredRequestOfAnEndedTurnIsInterrupted(t *testing.T) {
	for _, end := range []event.Type{event.TurnCompleted, event.TurnFailed} {
		m := applyAll(askingTurn(t, end))
		if len(m.Approvals) != 0 {
			t.Errorf("%s: still pending: %+v", end, m.Approvals)
		}
		if e, _ := m.Tool("c1"); e.Status != ToolInterrupted || e.RequestID != "" {
			t.Errorf("%s: tool = %+v", end, e)
		}
		if b, _ := m.Block(toolBlockID("c1")); b.Status != transcript.StatusInterrupted || !b.Done {
			t.Errorf("%s: block = %+v", end, b)
		}
		got := m.InterruptedNow()
		if len(got) != 1 || got[0].RequestID != "r1" || got[0].Outcome != OutcomeInterrupted {
			t.Errorf("%s: interrupted = %+v", end, got)
		}
	}
}

// TestInterruptAfterADeadProcess: a log that stops mid-turn (its process
// died) keeps the request pending until the workbench says no turn runs
// (Interrupt); then the turn, its request, its streaming text are closed.
func TestInterruptAfterADeadProcess(t *testing.T) {
	m := applyAll(askingTurn(t, ""))
	if len(m.Approvals) != 1 || m.Status.Turn != TurnRunning {
		t.Fatalf("before Interrupt: %+v %s", m.Approvals, m.Status.Turn)
	}
	m.TakeTouched()
	m.Interrupt()
	if len(m.Approvals) != 0 || m.Status.Turn != TurnInterrupted {
		t.Errorf("after Interrupt: %+v %s", m.Approvals, m.Status.Turn)
	}
	if e, _ := m.Tool("c1"); e.Status != ToolInterrupted {
		t.Errorf("tool = %+v", e)
	}
	if b, _ := m.Block("m1"); !b.Done || b.Title != "interrupted" || b.Text != "Editing" {
		t.Errorf("streamed block = %+v", b)
	}
	if got := m.InterruptedNow(); len(got) != 1 || got[0].RequestID != "r1" {
		t.Errorf("interrupted = %+v", got)
	}
	if touched := m.TakeTouched(); len(touched) != 2 {
		t.Errorf("touched = %v (the tool block and the message)", touched)
	}
	// A finished session is left as it is.
	done := applyAll(sampleTurn(t))
	before := applyAll(sampleTurn(t))
	done.Interrupt()
	assertSameModel(t, before, done)
	if !reflect.DeepEqual(before.History, done.History) {
		t.Errorf("Interrupt changed a finished session's history")
	}
	// A later turn then starts as usual; the old request is history only.
	r := &recorder{t: t, evs: askingTurn(t, "")}
	r.add(event.TurnStarted, "t2", event.TurnStartedData{Input: "again"})
	m2 := applyAll(r.evs)
	if len(m2.Approvals) != 0 || len(m2.InterruptedNow()) != 0 || m2.History[0].Outcome != OutcomeInterrupted {
		t.Errorf("after a new turn: queue %+v, now %+v, history %+v", m2.Approvals, m2.InterruptedNow(), m2.History)
	}
}
