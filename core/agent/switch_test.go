package agent

import (
	"context"
	"errors"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
)

// TestSetModeRecordsEachChange: every change of mode is a mode.changed event
// of the session, with the mode before it; setting the mode in force again
// records nothing, and the agent decides with the new mode at once.
func TestSetModeRecordsEachChange(t *testing.T) {
	h := newHarness(t, nil, permission.ModeDefault)
	ctx := context.Background()
	for _, m := range []permission.Mode{permission.ModePlan, permission.ModePlan, permission.ModeBypass} {
		if err := h.ag.SetMode(ctx, h.sess.ID, m); err != nil {
			t.Fatal(err)
		}
		if h.ag.Mode() != m {
			t.Fatalf("mode %s after SetMode(%s)", h.ag.Mode(), m)
		}
	}
	changes := eventsOf(h.events(), event.ModeChanged)
	if len(changes) != 2 {
		t.Fatalf("%d mode.changed events, want 2: %v", len(changes), changes)
	}
	first, second := mustDecode[event.ModeChangedData](t, changes[0]), mustDecode[event.ModeChangedData](t, changes[1])
	if first != (event.ModeChangedData{Mode: "plan", Previous: "default"}) ||
		second != (event.ModeChangedData{Mode: "bypassPermissions", Previous: "plan"}) {
		t.Errorf("changes = %+v, %+v", first, second)
	}
	if changes[0].TurnID != "" {
		t.Errorf("a change outside a turn has turn %q", changes[0].TurnID)
	}
	if err := h.ag.SetMode(ctx, "", permission.ModeDefault); err != nil || h.ag.Mode() != permission.ModeDefault {
		t.Errorf("no session: %v, mode %s", err, h.ag.Mode())
	}
}

// TestSwitchModelStoresAndRecords: SwitchModel stores the model in the
// session's record, records a model.changed event, and the next model call
// uses it with its window and pricing.
func TestSwitchModelStoresAndRecords(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{{Events: []provider.Event{
		{Type: provider.EventTextDelta, Text: "ok"},
		{Type: provider.EventUsage, Usage: message.Usage{InputTokens: 10, OutputTokens: 2}},
		{Type: provider.EventDone, FinishReason: "stop"},
	}}}}
	h := newHarness(t, prov, permission.ModeDefault)
	ctx := context.Background()
	price := 0.5
	err := h.ag.SwitchModel(ctx, h.sess.ID, ModelChoice{ID: "m2", Name: "fake/m2", ContextWindow: 1000,
		Cost: func(message.Usage) *float64 { return &price }})
	if err != nil {
		t.Fatal(err)
	}
	s, err := h.store.GetSession(ctx, h.sess.ID)
	if err != nil || s.Model != "fake/m2" {
		t.Fatalf("stored model %q, %v", s.Model, err)
	}
	changes := eventsOf(h.events(), event.ModelChanged)
	if len(changes) != 1 || mustDecode[event.ModelChangedData](t, changes[0]) !=
		(event.ModelChangedData{Model: "fake/m2", Previous: "fake/m", ContextWindow: 1000}) {
		t.Fatalf("model.changed = %v", changes)
	}
	h.submit(ctx, "hi")
	if got := prov.Request(0).Model; got != "m2" {
		t.Errorf("request model %q, want m2", got)
	}
	usage := eventsOf(h.events(), event.UsageReported)
	if len(usage) != 1 {
		t.Fatalf("usage events: %v", usage)
	}
	if u := mustDecode[event.UsageData](t, usage[0]); u.ContextWindow != 1000 || u.CostUSD == nil || *u.CostUSD != price {
		t.Errorf("usage = %+v", u)
	}
}

// TestSwitchModelRefusedDuringATurn: while the session runs a turn the model
// stays, nothing is stored and nothing recorded.
func TestSwitchModelRefusedDuringATurn(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{{Events: []provider.Event{
		{Type: provider.EventTextDelta, Text: "thinking"}}, Block: true}}}
	h := newHarness(t, prov, permission.ModeDefault)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = h.ag.SubmitTurn(ctx, h.sess.ID, "long")
	}()
	for prov.Calls() == 0 {
		time.Sleep(time.Millisecond)
	}
	err := h.ag.SwitchModel(context.Background(), h.sess.ID, ModelChoice{ID: "m2", Name: "fake/m2"})
	cancel()
	<-done
	if !errors.Is(err, ErrTurnActive) {
		t.Fatalf("SwitchModel during a turn: %v", err)
	}
	if s, _ := h.store.GetSession(context.Background(), h.sess.ID); s.Model != "fake/m" || h.ag.ModelName() != "fake/m" {
		t.Errorf("model changed anyway: stored %q, agent %q", s.Model, h.ag.ModelName())
	}
	if n := len(eventsOf(h.events(), event.ModelChanged)); n != 0 {
		t.Errorf("%d model.changed events", n)
	}
}
