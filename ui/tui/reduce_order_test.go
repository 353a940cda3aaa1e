package tui

import (
	"strings"
	"testing"

	"pincer/core/event"
)

// TestTimelineKeepsTheModelsCallOrder (Found 13): the calls of one reply are
// listed in the order the model made them (the message.completed that ends
// the reply names them), whatever order their parallel runs start, ask and
// end in.
func TestTimelineKeepsTheModelsCallOrder(t *testing.T) {
	cases := []struct {
		name    string
		started []string // the order tool.started arrives in
	}{
		{"in order", []string{"c1", "c2", "c3"}},
		{"reversed", []string{"c3", "c2", "c1"}},
		{"middle first", []string{"c2", "c3", "c1"}},
	}
	for _, c := range cases {
		r := &recorder{t: t}
		r.add(event.TurnStarted, "t1", event.TurnStartedData{Input: "look"}).
			add(event.MessageCompleted, "t1", event.MessageCompletedData{MessageID: "m1", Role: "assistant",
				ToolCalls: []event.ToolCallRef{{ToolCallID: "c1", Name: "Read"}, {ToolCallID: "c2", Name: "Grep"}, {ToolCallID: "c3", Name: "Glob"}}})
		for _, id := range c.started {
			r.add(event.ToolStarted, "t1", event.ToolStartedData{ToolCallID: id, Name: "Read", Summary: "Read " + id})
		}
		for _, id := range c.started {
			r.add(event.ToolCompleted, "t1", event.ToolCompletedData{ToolCallID: id, Name: "Read", Output: "x"})
		}
		m := applyAll(r.evs)
		var got []string
		for _, e := range m.Timeline {
			got = append(got, e.ToolCallID)
		}
		if strings.Join(got, " ") != "c1 c2 c3" {
			t.Errorf("%s: timeline %v, want c1 c2 c3", c.name, got)
		}
	}
	// Before the reply ends (or in a log written before message.completed named
	// its calls), a call still appears when its first event comes.
	r := &recorder{t: t}
	r.add(event.ToolStarted, "t1", event.ToolStartedData{ToolCallID: "x", Name: "Read"})
	if m := applyAll(r.evs); len(m.Timeline) != 1 || m.Timeline[0].ToolCallID != "x" {
		t.Errorf("timeline %+v", m.Timeline)
	}
}
