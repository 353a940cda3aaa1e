package agent

import (
	"context"
	"testing"

	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
	"pincer/tools"
)

// TestToolReceivingEvent: a streamed call's start (its name known, its
// arguments still arriving) is a tool.receiving in the log, after the text
// streamed before it and before the call's tool.started.
func TestToolReceivingEvent(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		{Events: []provider.Event{{Type: provider.EventTextDelta, Text: "Reading."},
			providertest.ToolCallStart("c1", "R"), providertest.ToolCall("c1", "R", `{"x":"a"}`),
			{Type: provider.EventDone, FinishReason: "tool_calls"}}},
		providertest.Text("ok"),
	}}
	h := newHarness(t, prov, permission.ModeDefault, &fakeTool{name: "R", kind: tools.KindRead})
	if res := h.submit(context.Background(), "go"); res.Err != nil {
		t.Fatal(res.Err)
	}
	var order []event.Type
	for _, ev := range h.events() {
		switch ev.Type {
		case event.MessageDelta, event.ToolReceiving, event.ToolStarted:
			order = append(order, ev.Type)
		}
	}
	want := []event.Type{event.MessageDelta, event.ToolReceiving, event.ToolStarted, event.MessageDelta}
	if len(order) != len(want) {
		t.Fatalf("events %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("events %v, want %v", order, want)
		}
	}
	d := mustDecode[event.ToolReceivingData](t, eventsOf(h.events(), event.ToolReceiving)[0])
	if d.ToolCallID != "c1" || d.Name != "R" {
		t.Errorf("tool.receiving %+v", d)
	}
}
