package tui

import (
	"strings"
	"testing"
	"time"

	"pincer/core/event"
)

func TestCostText(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    Status
		want string
	}{
		{"before any model call", Status{}, ""},
		{"before any call, a stale sum", Status{CostUSD: 0}, ""},
		{"priced calls", Status{ModelCalls: 2, CostUSD: 0.01234}, "$0.0123"},
		{"free calls", Status{ModelCalls: 1}, "$0"},
		{"tiny", Status{ModelCalls: 1, CostUSD: 0.00001}, "<$0.0001"},
		{"one unpriced call", Status{ModelCalls: 3, CostUSD: 0.5, CostUnknown: true}, "?"},
	} {
		if got := costText(tc.s); got != tc.want {
			t.Errorf("%s: costText = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestStatusCost: the status line shows no cost before the first model call,
// the sum after a priced one, "cost ?" once one reported no price.
func TestStatusCost(t *testing.T) {
	w := &Workbench{keys: DefaultKeyMap(), UIState: UIState{sessionTab: &sessionTab{model: NewModel()}}}
	line := func() string { return w.statusText(time.Time{}, 300) }
	if got := line(); strings.Contains(got, "$") || strings.Contains(got, "cost") {
		t.Errorf("before any model call: %q", got)
	}
	price := 0.0125
	r := &recorder{t: t}
	r.add(event.UsageReported, "t1", event.UsageData{InputTokens: 10, OutputTokens: 2, CostUSD: &price})
	r.add(event.UsageReported, "t1", event.UsageData{InputTokens: 10, OutputTokens: 2})
	w.model.Apply(r.evs[0])
	if got := line(); !strings.Contains(got, "· $0.0125 ·") {
		t.Errorf("after a priced call: %q", got)
	}
	w.model.Apply(r.evs[1])
	if got := line(); !strings.Contains(got, "· cost ? ·") || strings.Contains(got, "$") {
		t.Errorf("after an unpriced call: %q", got)
	}
}
