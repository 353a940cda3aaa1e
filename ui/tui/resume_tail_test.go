package tui

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"pincer/core/agent"
	"pincer/core/event"
)

// longLog logs a session longer than tailEvents: a mode and a model change
// and a background subagent that never ends, all before the tail; turns with
// approved and denied Bash calls, a compaction, a finished subagent, notices
// and usage; and, when open, a last turn left running with a pending
// approval and a started call (no process runs it: the replay's end shows it
// interrupted). It returns the session's events.
func longLog(t *testing.T, ag *agent.Agent, sid string, turns int, open bool) []event.Event {
	t.Helper()
	ctx := context.Background()
	emit := func(typ event.Type, turn string, p any) {
		if _, err := ag.Log().Emit(ctx, typ, sid, turn, p); err != nil {
			t.Fatal(err)
		}
	}
	emit(event.ModeChanged, "", event.ModeChangedData{Mode: "acceptEdits"})
	emit(event.ModelChanged, "", event.ModelChangedData{Model: "fake/big", ContextWindow: 100000})
	cost := 0.01
	for i := 1; i <= turns; i++ {
		tid, call := fmt.Sprintf("t%d", i), fmt.Sprintf("c%d", i)
		emit(event.TurnStarted, tid, event.TurnStartedData{Input: fmt.Sprintf("step %d", i)})
		if i == 1 {
			emit(event.SubagentStarted, tid, event.SubagentStartedData{ToolCallID: "bg", ChildSessionID: sid + "-bg",
				AgentType: "Explore", Description: "look around", Background: true})
		}
		emit(event.MessageDelta, tid, event.MessageDeltaData{MessageID: "m" + tid, Delta: "Running ", Kind: "text"})
		emit(event.MessageCompleted, tid, event.MessageCompletedData{MessageID: "m" + tid, Role: "assistant", Text: "Running it.",
			ToolCalls: []event.ToolCallRef{{ToolCallID: call, Name: "Bash"}}})
		emit(event.UsageReported, tid, event.UsageData{InputTokens: 100, OutputTokens: 10, CostUSD: &cost, ContextWindow: 100000})
		emit(event.PermissionRequested, tid, event.PermissionRequestedData{RequestID: "r" + call, ToolCallID: call, Name: "Bash",
			Summary: "Bash: make", Command: "make"})
		decision := "allow"
		if i%3 == 0 {
			decision = "deny"
		}
		emit(event.PermissionResolved, tid, event.PermissionResolvedData{RequestID: "r" + call, ToolCallID: call,
			Decision: decision, Scope: "once", By: "user"})
		if decision == "allow" {
			emit(event.ToolStarted, tid, event.ToolStartedData{ToolCallID: call, Name: "Bash", Input: `{"command":"make"}`, Summary: "Bash: make"})
			emit(event.ToolCompleted, tid, event.ToolCompletedData{ToolCallID: call, Name: "Bash", Output: "ok\n", DurationMs: 5})
		} else {
			emit(event.ToolCompleted, tid, event.ToolCompletedData{ToolCallID: call, Name: "Bash", Output: "denied", IsError: true, DeniedBy: "user"})
		}
		switch i % 17 {
		case 5:
			emit(event.CompactionCompleted, tid, event.CompactionCompletedData{BeforeTokens: 9000, AfterTokens: 900})
		case 9:
			child := fmt.Sprintf("%s-child%d", sid, i)
			emit(event.SubagentStarted, tid, event.SubagentStartedData{ToolCallID: "a" + call, ChildSessionID: child, AgentType: "Explore", Description: "find it"})
			emit(event.SubagentCompleted, tid, event.SubagentCompletedData{ToolCallID: "a" + call, ChildSessionID: child, AgentType: "Explore",
				Outcome: "completed", Result: "found", ModelCalls: 2})
		case 11:
			emit(event.Notice, tid, event.NoticeData{Level: "warning", Source: "hook", Message: "slow hook"})
		}
		emit(event.MessageCompleted, tid, event.MessageCompletedData{MessageID: "n" + tid, Role: "assistant", Text: fmt.Sprintf("Step %d done.", i)})
		emit(event.UsageReported, tid, event.UsageData{InputTokens: 120, OutputTokens: 12, CostUSD: &cost, ContextWindow: 100000})
		emit(event.TurnCompleted, tid, event.TurnCompletedData{StopReason: "end_turn"})
	}
	if open {
		tid := "open"
		emit(event.TurnStarted, tid, event.TurnStartedData{Input: "last step"})
		emit(event.MessageDelta, tid, event.MessageDeltaData{MessageID: "mopen", Delta: "Half an answ", Kind: "text"})
		emit(event.ToolStarted, tid, event.ToolStartedData{ToolCallID: "run", Name: "Bash", Input: `{"command":"sleep 9"}`, Summary: "Bash: sleep 9"})
		emit(event.PermissionRequested, tid, event.PermissionRequestedData{RequestID: "rpend", ToolCallID: "pend", Name: "Bash",
			Summary: "Bash: rm x", Command: "rm x"})
	}
	evs, err := ag.Log().Read(ctx, sid, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// replayModel is the Model a replay from sequence 1 builds, ended as the
// workbench ends a replay nobody runs (Interrupt), without its touched list.
func replayModel(evs []event.Event) *Model {
	m := NewModel()
	for _, ev := range evs {
		m.Apply(ev)
	}
	m.Interrupt()
	m.TakeTouched()
	return m
}

// TestResumeTailThenBackfillIsFullReplay: a session longer than tailEvents
// is shown tail first, and once the backfill is in, the tab's model is the
// one a full replay builds — turn count, usage totals, mode, model, the
// approvals' history, subagents (one started before the tail), tool calls,
// compaction notices, the interrupted open turn — and the status line shows
// the whole session's totals, not "loading history".
func TestResumeTailThenBackfillIsFullReplay(t *testing.T) {
	for _, open := range []bool{false, true} {
		t.Run(fmt.Sprintf("open=%v", open), func(t *testing.T) {
			ag, _ := newTestAgent(t, nil)
			s, err := ag.CreateSession(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			evs := longLog(t, ag, s.ID, 120, open)
			if len(evs) <= 2*tailEvents {
				t.Fatalf("%d events: the log must be longer than the tail", len(evs))
			}
			want := replayModel(evs)
			b := startBench(t, 160, 40, Options{})
			defer b.stop()
			b.w.Attach(backendOf(ag), s.ID)
			b.waitText("Step 120 done.")
			var got *Model
			b.waitFor("the backfill", func(string) bool {
				b.w.app.QueueUpdate(func() {
					if !b.w.backfilling && b.w.model.LastSequence == evs[len(evs)-1].Sequence {
						got = b.w.model
					}
				})
				return got != nil
			})
			var match bool
			var diff string
			b.w.app.QueueUpdate(func() {
				got.TakeTouched()
				match = reflect.DeepEqual(got, want)
				if !match {
					diff = fmt.Sprintf("status %+v\nwant   %+v\nblocks %d want %d, timeline %d want %d, history %d want %d, approvals %d want %d",
						got.Status, want.Status, len(got.Blocks), len(want.Blocks), len(got.Timeline), len(want.Timeline),
						len(got.History), len(want.History), len(got.Approvals), len(want.Approvals))
				}
			})
			if !match {
				t.Fatalf("the backfilled model is not the full replay's:\n%s", diff)
			}
			b.waitText(fmt.Sprintf("↑%s", humanTokens(want.Status.InputTokens)))
		})
	}
}

// TestFromTurnStart: a tail starts at its first turn.started; a tail with
// none (inside one long turn) is kept whole.
func TestFromTurnStart(t *testing.T) {
	ev := func(seq uint64, typ event.Type) event.Event { return event.Event{Sequence: seq, Type: typ} }
	for _, tc := range []struct {
		name string
		in   []event.Event
		want uint64 // first sequence kept, 0: none
	}{
		{"empty", nil, 0},
		{"starts at a turn", []event.Event{ev(5, event.TurnStarted), ev(6, event.MessageDelta)}, 5},
		{"inside a turn", []event.Event{ev(5, event.MessageDelta), ev(6, event.TurnCompleted), ev(7, event.TurnStarted), ev(8, event.MessageDelta)}, 7},
		{"no turn start", []event.Event{ev(5, event.MessageDelta), ev(6, event.MessageDelta)}, 5},
	} {
		got := fromTurnStart(tc.in)
		first := uint64(0)
		if len(got) > 0 {
			first = got[0].Sequence
		}
		if first != tc.want {
			t.Errorf("%s: starts at %d, want %d", tc.name, first, tc.want)
		}
	}
}

// TestPumpHoldsFramesUntilUnhold: while frames are held, posts draw nothing;
// unhold draws them in one frame; a hold nobody ends lasts its bound only.
// (The draws are counted, not timed: the bound is a wait, with slack.)
func TestPumpHoldsFramesUntilUnhold(t *testing.T) {
	var p *pump
	p = newPump(func(int, event.Event) {}, func() { p.drain() }, nil)
	p.start()
	defer p.stop()
	p.hold(time.Minute)
	for i := 0; i < 3; i++ {
		p.post(func() {})
		time.Sleep(20 * time.Millisecond)
	}
	if n := p.draws.Load(); n != 0 {
		t.Fatalf("%d frames drawn while held", n)
	}
	p.unhold()
	waitUntil(t, "the held frame", func() bool { return p.draws.Load() == 1 })
	time.Sleep(50 * time.Millisecond)
	if n := p.draws.Load(); n != 1 {
		t.Fatalf("%d frames for the posts of one hold, want 1", n)
	}
	p.unhold() // no hold: nothing happens
	p.hold(30 * time.Millisecond)
	p.post(func() {})
	waitUntil(t, "the frame after the hold's bound", func() bool { return p.draws.Load() == 2 })
}
