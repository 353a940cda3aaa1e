package browser

import (
	"encoding/json"
	"fmt"
	"testing"

	"pincer/core/event"
)

// TestAddStatsCountsUnreadableEvents: the figures come from the typed payloads;
// an event whose payload does not decode is counted (the row then shows its
// figures as lower bounds), a type this build does not know is not.
func TestAddStatsCountsUnreadableEvents(t *testing.T) {
	ev := func(typ event.Type, data string) event.Event {
		return event.Event{Type: typ, SessionID: "s", Data: json.RawMessage(data)}
	}
	sum := AddStats(Summary{}, []event.Event{
		ev(event.TurnStarted, `{"input":"fix the bug\nplease"}`),
		ev(event.UsageReported, `{"inputTokens":10,"outputTokens":5,"costUsd":0.5}`),
		ev(event.UsageReported, `{"inputTokens":"ten"}`),
		ev(event.TurnStarted, `[1]`),
		ev("future.thing", `{}`),
	})
	if sum.Turns != 2 || sum.InputTokens != 10 || sum.OutputTokens != 5 || sum.CostUSD != 0.5 || sum.Title != "fix the bug please" {
		t.Errorf("figures %+v", sum)
	}
	if sum.Unreadable != 2 {
		t.Errorf("unreadable = %d, want 2 (the unknown type is not a fault)", sum.Unreadable)
	}
	cells := View{Tokens: func(n int64) string { return fmt.Sprint(n) }}.cells(sum, "")
	if cells[6] != "2+" {
		t.Errorf("turns cell %q, want 2+", cells[6])
	}
}
