package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
)

// recordingObserver keeps what it was given and asks the model once.
type recordingObserver struct {
	got   []CompletedTurn
	reply string
	err   error
}

func (o *recordingObserver) ObserveTurn(ctx context.Context, ct CompletedTurn) {
	o.got = append(o.got, ct)
	o.reply, o.err = ct.Ask(ctx, "side system", "side user")
	ct.Notice("info", "skills", "observed "+ct.TurnID)
}

// TestObserverSeesTheCompletedTurnBeforeItsEnd: an observer gets the turn's
// messages (its user message, the tool call and result, the final reply), its
// side call goes to the session's provider with no tools and its usage counts,
// and what it emits lands before turn.completed with the turn's ID.
func TestObserverSeesTheCompletedTurnBeforeItsEnd(t *testing.T) {
	obs := &recordingObserver{}
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "echo", `{"x":"a"}`)),
		providertest.Text("all done"),
		providertest.Text("side answer"),
	}}
	h := newHarnessWith(t, prov, memory.New(), Config{PermissionMode: permission.ModeBypass, Observers: []TurnObserver{obs}},
		&fakeTool{name: "echo"})
	res := h.submit(context.Background(), "do the thing")
	if res.Outcome != OutcomeCompleted {
		t.Fatalf("outcome %s: %v", res.Outcome, res.Err)
	}
	if len(obs.got) != 1 {
		t.Fatalf("observer called %d times", len(obs.got))
	}
	ct := obs.got[0]
	if ct.SessionID != h.sess.ID || ct.TurnID != res.TurnID || ct.Input != "do the thing" || ct.FinalText != "all done" || ct.ParentID != "" {
		t.Errorf("completed turn %+v", ct)
	}
	var roles []string
	for _, m := range ct.Messages {
		roles = append(roles, string(m.Role))
	}
	if got := strings.Join(roles, " "); got != "user assistant tool assistant" {
		t.Errorf("messages %s", got)
	}
	if obs.err != nil || obs.reply != "side answer" {
		t.Errorf("side call = %q, %v", obs.reply, obs.err)
	}
	side := prov.Request(2)
	if len(side.Tools) != 0 || len(side.Messages) != 2 || side.Messages[0].Role != message.RoleSystem || side.Messages[1].Text() != "side user" {
		t.Errorf("side request %+v", side)
	}
	if res.Iterations != 2 {
		t.Errorf("iterations %d: the side call is no model call of the loop", res.Iterations)
	}
	evs := h.events()
	notice, done := -1, -1
	for i, ev := range evs {
		switch ev.Type {
		case event.Notice:
			notice = i
			if ev.TurnID != res.TurnID {
				t.Errorf("notice of turn %q", ev.TurnID)
			}
		case event.TurnCompleted:
			done = i
		}
	}
	if notice < 0 || done < 0 || notice > done {
		t.Errorf("the observer's notice at %d, turn.completed at %d", notice, done)
	}
	prov.Push(providertest.Text("second"), providertest.Text("side 2"))
	h.submit(context.Background(), "again")
	if len(obs.got) != 2 || obs.got[0].Number != 1 || obs.got[1].Number != 2 {
		t.Errorf("turn numbers %+v", obs.got)
	}
}

// TestObserverNotCalledForAFailedTurn: a turn that failed is no completed
// task; the observer is not asked.
func TestObserverNotCalledForAFailedTurn(t *testing.T) {
	obs := &recordingObserver{}
	prov := &providertest.Scripted{Steps: []providertest.Step{{Err: errors.New("boom")}}}
	h := newHarnessWith(t, prov, memory.New(), Config{Observers: []TurnObserver{obs}})
	if res := h.submit(context.Background(), "x"); res.Outcome != OutcomeFailed {
		t.Fatalf("outcome %s", res.Outcome)
	}
	if len(obs.got) != 0 {
		t.Fatalf("observer called for a failed turn: %+v", obs.got)
	}
}
