package agent

import (
	"context"
	"testing"

	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
)

// TestOutputLimitStop: an answer cut by the output limit, under each provider's
// name for it, ends the turn with stop reason max_tokens and one warning notice;
// other finishes keep their reason and warn nothing.
func TestOutputLimitStop(t *testing.T) {
	for _, tc := range []struct {
		finish, stop string
		warned       bool
	}{
		{"length", StopMaxTokens, true},
		{"max_tokens", StopMaxTokens, true},
		{"MAX_TOKENS", StopMaxTokens, true},
		{"max_output_tokens", StopMaxTokens, true},
		{"stop", "stop", false},
		{"end_turn", "end_turn", false},
		{"", "stop", false},
	} {
		t.Run(tc.finish, func(t *testing.T) {
			prov := &providertest.Scripted{Steps: []providertest.Step{{Events: []provider.Event{
				{Type: provider.EventTextDelta, Text: "The answer is"}, {Type: provider.EventDone, FinishReason: tc.finish}}}}}
			h := newHarness(t, prov, permission.ModeDefault)
			res := h.submit(context.Background(), "q")
			if res.Outcome != OutcomeCompleted || res.StopReason != tc.stop {
				t.Fatalf("outcome %s, stop %q, want %q", res.Outcome, res.StopReason, tc.stop)
			}
			var warned int
			for _, ev := range eventsOf(h.events(), event.Notice) {
				if d := mustDecode[event.NoticeData](t, ev); d.Source == "output_limit" && d.Level == "warning" {
					warned++
				}
			}
			if (warned == 1) != tc.warned || warned > 1 {
				t.Errorf("%d output-limit notices, want warned=%v", warned, tc.warned)
			}
			completed := eventsOf(h.events(), event.TurnCompleted)
			if len(completed) != 1 || mustDecode[event.TurnCompletedData](t, completed[0]).StopReason != tc.stop {
				t.Errorf("turn.completed %v", completed)
			}
		})
	}
}
