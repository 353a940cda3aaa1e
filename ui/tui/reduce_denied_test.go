package tui

import (
	"testing"

	"pincer/core/event"
)

// TestReduceRefusedCallKeepsItsCommand (NU3): a call the permission decision
// refused before it started (plan mode: no tool.started, no request) shows
// its command and "denied (plan mode)", as a person's denial shows the
// command; a call that failed while running stays failed.
func TestReduceRefusedCallKeepsItsCommand(t *testing.T) {
	for _, tc := range []struct {
		name          string
		data          event.ToolCompletedData
		summary, note string
		status        ToolStatus
	}{
		{"plan mode", event.ToolCompletedData{ToolCallID: "c1", Name: "Bash", Output: "Permission denied: plan mode is read-only", IsError: true,
			Summary: "Bash: rm -f README.md", DeniedBy: "mode:plan"}, "Bash: rm -f README.md", "(plan mode)", ToolDenied},
		{"a rule", event.ToolCompletedData{ToolCallID: "c1", Name: "Bash", Output: "Permission denied: rule", IsError: true,
			Summary: "Bash: git push", DeniedBy: "rule Bash(git push:*)"}, "Bash: git push", "", ToolDenied},
		{"failed", event.ToolCompletedData{ToolCallID: "c1", Name: "Bash", Output: "exit 1", IsError: true,
			Summary: "Bash: false"}, "Bash: false", "", ToolFailed},
		{"older log", event.ToolCompletedData{ToolCallID: "c1", Name: "Bash", Output: "x", IsError: true}, "Bash", "", ToolFailed},
	} {
		for _, streamed := range []bool{false, true} {
			name := tc.name
			if streamed {
				name += ", announced while it streamed"
			}
			t.Run(name, func(t *testing.T) {
				r := &recorder{t: t}
				r.add(event.TurnStarted, "t1", event.TurnStartedData{Input: "go"})
				if streamed { // tool.receiving named it first (new user r24 #9: "✗ Edit" stayed)
					r.add(event.ToolReceiving, "t1", event.ToolReceivingData{ToolCallID: "c1", Name: tc.data.Name})
				}
				r.add(event.ToolCompleted, "t1", tc.data)
				m := applyAll(r.evs)
				e, ok := m.Tool("c1")
				if !ok || e.Summary != tc.summary || e.Status != tc.status {
					t.Fatalf("entry %+v (found %v), want summary %q status %s", e, ok, tc.summary, tc.status)
				}
				b, _ := m.Block(toolBlockID("c1"))
				if b.Title != tc.summary || b.StatusNote != tc.note {
					t.Errorf("block title %q note %q, want %q %q", b.Title, b.StatusNote, tc.summary, tc.note)
				}
			})
		}
	}
}
