package tui

import (
	"testing"

	"pincer/core/event"
)

// TestReduceCheckpoints: checkpoint.recorded marks the session's last
// checkpoint and the call's; one of a call the timeline lacks adds no entry.
func TestReduceCheckpoints(t *testing.T) {
	r := &recorder{t: t}
	r.add(event.ToolStarted, "t1", event.ToolStartedData{ToolCallID: "c1", Name: "Bash", Summary: "Bash rm b"}).
		add(event.CheckpointRecorded, "t1", event.CheckpointRecordedData{ToolCallID: "c1", Seq: 4}).
		add(event.CheckpointRecorded, "t1", event.CheckpointRecordedData{ToolCallID: "child-call", Seq: 5})
	m := applyAll(r.evs)
	if m.Checkpoint != 5 {
		t.Errorf("last checkpoint %d, want 5", m.Checkpoint)
	}
	if len(m.Timeline) != 1 || m.Timeline[0].Checkpoint != 4 {
		t.Errorf("timeline %+v", m.Timeline)
	}
}
