package agent

import (
	"context"
	"errors"
	"os"
	"syscall"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
)

// TestCancelCauseNamesTheSignal: a turn cancelled because the process got a
// signal says which in its turn.cancelled reason (red team, round 2: a
// session whose terminal went away read "cancelled by user").
func TestCancelCauseNamesTheSignal(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cause  error
		reason string
	}{
		{"a person's cancel", nil, "cancelled by user"},
		{"interrupt", SignalCause(os.Interrupt), "cancelled by user"},
		{"terminal closed", SignalCause(syscall.SIGHUP), "terminal closed (SIGHUP)"},
		{"terminated", SignalCause(syscall.SIGTERM), "terminated (SIGTERM)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prov := &providertest.Scripted{Steps: []providertest.Step{{Events: []provider.Event{{Type: provider.EventTextDelta, Text: "partial"}}, Block: true}}}
			h := newHarness(t, prov, permission.ModeDefault)
			ctx, cancel := context.WithCancelCause(context.Background())
			go func() {
				for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
					evs, _ := h.store.ListEvents(context.Background(), h.sess.ID, 0, 0)
					if len(eventsOf(evs, event.MessageDelta)) > 0 {
						break
					}
				}
				cancel(tc.cause)
			}()
			res := h.submit(ctx, "go")
			if res.Outcome != OutcomeCancelled {
				t.Fatalf("outcome %s", res.Outcome)
			}
			last := lastEvent(h.events())
			p, _ := last.Payload()
			d, ok := p.(event.TurnCancelledData)
			if !ok || d.Reason != tc.reason {
				t.Errorf("last event %s %+v, want turn.cancelled %q", last.Type, p, tc.reason)
			}
			var sc *StopCause
			if tc.reason != "cancelled by user" && (!errors.As(res.Err, &sc) || sc.Reason != tc.reason) {
				t.Errorf("result error %v, want the StopCause", res.Err)
			}
		})
	}
}
