package agent

import (
	"context"
	"errors"
	"testing"

	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
)

// malformedStep is a model call that ends with a malformed tool call, after some text.
func malformedStep() providertest.Step {
	return providertest.Step{Events: []provider.Event{{Type: provider.EventTextDelta, Text: "Let me edit"}},
		Err: &provider.Error{Provider: "fake", Kind: provider.KindMalformedCall, Message: "the model's function call could not be parsed"}}
}

func TestMalformedCallRetriedOnce(t *testing.T) {
	for _, tc := range []struct {
		name    string
		steps   []providertest.Step
		outcome Outcome
		calls   int
	}{
		{"retry succeeds", []providertest.Step{malformedStep(), providertest.Text("edited")}, OutcomeCompleted, 2},
		{"second malformed ends the turn", []providertest.Step{malformedStep(), malformedStep(), providertest.Text("never")}, OutcomeFailed, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prov := &providertest.Scripted{Steps: tc.steps}
			h := newHarness(t, prov, permission.ModeDefault)
			res := h.submit(context.Background(), "edit it")
			if res.Outcome != tc.outcome || prov.Calls() != tc.calls {
				t.Fatalf("outcome %s after %d calls (err %v), want %s after %d", res.Outcome, prov.Calls(), res.Err, tc.outcome, tc.calls)
			}
			if tc.outcome == OutcomeCompleted && res.FinalText != "edited" {
				t.Errorf("final text %q", res.FinalText)
			}
			if tc.outcome == OutcomeFailed {
				var pe *provider.Error
				if !errors.As(res.Err, &pe) || pe.Kind != provider.KindMalformedCall || res.StopReason != event.ReasonProvider {
					t.Errorf("err %v, stop reason %q", res.Err, res.StopReason)
				}
			}
			var retries int
			for _, ev := range eventsOf(h.events(), event.Notice) {
				if d := mustDecode[event.NoticeData](t, ev); d.Source == "malformed_call" && d.Level == "warning" {
					retries++
				}
			}
			if retries != 1 {
				t.Errorf("%d retry notices, want 1", retries)
			}
		})
	}
}

// TestOtherErrorsNotRetried: only a malformed call is retried by this path.
func TestOtherErrorsNotRetried(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		{Err: &provider.Error{Provider: "fake", Kind: provider.KindBadRequest, Status: 400, Message: "bad"}}, providertest.Text("never")}}
	h := newHarness(t, prov, permission.ModeDefault)
	if res := h.submit(context.Background(), "x"); res.Outcome != OutcomeFailed || prov.Calls() != 1 {
		t.Fatalf("outcome %s after %d calls", res.Outcome, prov.Calls())
	}
}
