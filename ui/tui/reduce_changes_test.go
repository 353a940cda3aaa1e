package tui

import (
	"testing"

	"pincer/core/event"
	"pincer/ui/tui/transcript"
)

// TestReduceModeAndModelChanges: mode.changed and model.changed reach the
// status and the transcript from the log alone, so a replay shows them; the
// context window follows the latest model.changed or usage; a pending
// request keeps the would-be diff (or the preview's failure) its event
// carries.
func TestReduceModeAndModelChanges(t *testing.T) {
	r := &recorder{t: t}
	r.add(event.SessionCreated, "", event.SessionCreatedData{Cwd: "/w", Model: "fake/m"}).
		add(event.ModeChanged, "", event.ModeChangedData{Mode: "plan", Previous: "default"}).
		add(event.ModelChanged, "", event.ModelChangedData{Model: "fake/m2", Previous: "fake/m", ContextWindow: 1000})
	m := applyAll(r.evs)
	if m.Status.Mode != "plan" || m.Status.Model != "fake/m2" || m.Status.ContextWindow != 1000 || !m.Status.WindowReported {
		t.Errorf("status = %+v", m.Status)
	}
	var notes []string
	for _, b := range m.Blocks {
		if b.Kind == transcript.KindNotice {
			notes = append(notes, b.Text)
		}
	}
	if len(notes) != 2 || notes[0] != "permission mode: plan" || notes[1] != "model: fake/m2" {
		t.Errorf("transcript notices = %q", notes)
	}
	r.add(event.TurnStarted, "t1", event.TurnStartedData{Input: "go"}).
		add(event.UsageReported, "t1", event.UsageData{InputTokens: 5, ContextWindow: 0}).
		add(event.PermissionRequested, "t1", event.PermissionRequestedData{RequestID: "r1", ToolCallID: "c1", Name: "Edit",
			Diff: "--- a/x\n+++ b/x\n"}).
		add(event.PermissionRequested, "t1", event.PermissionRequestedData{RequestID: "r2", ToolCallID: "c2", Name: "Edit",
			PreviewError: "old_string is not in the file"})
	m = applyAll(r.evs)
	if m.Status.ContextWindow != 0 || !m.Status.WindowReported {
		t.Errorf("after a usage of unknown window: %+v", m.Status)
	}
	a1, _ := m.Approval("r1")
	a2, _ := m.Approval("r2")
	if a1.Diff != "--- a/x\n+++ b/x\n" || a2.PreviewError != "old_string is not in the file" || a2.Diff != "" {
		t.Errorf("approvals = %+v, %+v", a1, a2)
	}
}
