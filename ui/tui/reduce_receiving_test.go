package tui

import (
	"testing"

	"pincer/core/event"
)

// TestReduceToolReceiving: a streamed call shows at once with its name and
// the mark; what comes next (tool.started, permission.requested,
// tool.completed of a call that never ran, the turn's end) replaces it in
// place. A call announced without an id is replaced by the first call of
// its turn and name.
func TestReduceToolReceiving(t *testing.T) {
	type want struct {
		ids     []string
		status  ToolStatus
		summary string
	}
	recv := func(id, name string) event.ToolReceivingData {
		return event.ToolReceivingData{ToolCallID: id, Name: name}
	}
	cases := []struct {
		name string
		then func(r *recorder)
		want want
	}{
		{"receiving", func(r *recorder) {}, want{[]string{"c1"}, ToolReceiving, "Edit … receiving arguments"}},
		{"then started", func(r *recorder) {
			r.add(event.ToolStarted, "t1", event.ToolStartedData{ToolCallID: "c1", Name: "Edit", Input: "{}", Summary: "Edit a.go"})
		}, want{[]string{"c1"}, ToolRunning, "Edit a.go"}},
		{"then asked", func(r *recorder) {
			r.add(event.PermissionRequested, "t1", event.PermissionRequestedData{RequestID: "r1", ToolCallID: "c1", Name: "Edit", Summary: "Edit a.go"})
		}, want{[]string{"c1"}, ToolApproval, "Edit a.go"}},
		{"then completed without running", func(r *recorder) {
			r.add(event.ToolCompleted, "t1", event.ToolCompletedData{ToolCallID: "c1", Name: "Edit", Output: "bad input", IsError: true})
		}, want{[]string{"c1"}, ToolFailed, "Edit"}},
		{"then the turn failed", func(r *recorder) {
			r.add(event.TurnFailed, "t1", event.TurnFailedData{Error: "stream cut", Reason: event.ReasonProvider})
		}, want{[]string{"c1"}, ToolInterrupted, "Edit"}},
	}
	for _, c := range cases {
		r := &recorder{t: t}
		r.add(event.TurnStarted, "t1", event.TurnStartedData{Input: "go"}).add(event.ToolReceiving, "t1", recv("c1", "Edit"))
		c.then(r)
		m := NewModel()
		for _, ev := range r.evs {
			m.Apply(ev)
		}
		var ids []string
		for _, e := range m.Timeline {
			ids = append(ids, e.ToolCallID)
		}
		if len(ids) != len(c.want.ids) || ids[0] != c.want.ids[0] {
			t.Errorf("%s: timeline %v, want %v", c.name, ids, c.want.ids)
			continue
		}
		e := m.Timeline[0]
		if e.Status != c.want.status || e.Summary != c.want.summary {
			t.Errorf("%s: %s %q, want %s %q", c.name, e.Status, e.Summary, c.want.status, c.want.summary)
		}
		if b, ok := m.Block(toolBlockID("c1")); !ok || b.Title == "" {
			t.Errorf("%s: no transcript entry", c.name)
		}
	}

	// Without an id: a placeholder in the timeline only, replaced by the call.
	r := &recorder{t: t}
	r.add(event.TurnStarted, "t1", event.TurnStartedData{Input: "go"}).
		add(event.ToolReceiving, "t1", recv("", "Bash"))
	m := NewModel()
	for _, ev := range r.evs {
		m.Apply(ev)
	}
	if len(m.Timeline) != 1 || m.Timeline[0].Status != ToolReceiving || len(m.Blocks) != 1 {
		t.Fatalf("id-less: timeline %+v, %d blocks", m.Timeline, len(m.Blocks))
	}
	r.add(event.ToolStarted, "t1", event.ToolStartedData{ToolCallID: "call_x", Name: "Bash", Summary: "ls"})
	m.Apply(r.evs[len(r.evs)-1])
	if len(m.Timeline) != 1 || m.Timeline[0].ToolCallID != "call_x" || m.Timeline[0].Status != ToolRunning {
		t.Errorf("id-less then started: %+v", m.Timeline)
	}
	if e, ok := m.Tool("call_x"); !ok || e.Summary != "ls" {
		t.Errorf("index after the replacement: %+v %v", e, ok)
	}
}
