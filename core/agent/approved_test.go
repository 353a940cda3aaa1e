package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/tools"
)

// changingApprover approves every ask, but first runs change: the file changes
// while the person reads the diff (a background process, their editor).
type changingApprover struct{ change func() }

func (a changingApprover) Approve(_ context.Context, _, _ string, _ permission.Input, _ permission.Decision) Approval {
	a.change()
	return Approval{Decision: permission.Decision{Behavior: permission.Allow, By: "user"}, Scope: permission.ScopeOnce}
}

// TestApprovedDiffIsWhatLands: an approved Edit writes the diff that was
// approved or nothing: when the file changed after permission.requested showed
// its diff (old_string still matching once), the tool result says so and the
// file keeps the bytes it changed to.
func TestApprovedDiffIsWhatLands(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c0", "Read", `{"file_path":"f.txt"}`)),
		providertest.ToolCalls(providertest.ToolCall("c1", "Edit", `{"file_path":"f.txt","old_string":"A","new_string":"B"}`)),
		{Events: providertest.TextEvents("ok")},
	}}
	var root string
	changed := "line1\nA\nEVIL\n"
	cfg := Config{Approver: changingApprover{change: func() {
		if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte(changed), 0o644); err != nil {
			t.Error(err)
		}
	}}}
	h := newHarnessWith(t, prov, memory.New(), cfg, tools.Default().All()...)
	root = h.ag.cfg.Workspace.Root()
	if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte("line1\nA\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.submit(context.Background(), "edit it")
	var result event.ToolCompletedData
	for _, ev := range eventsOf(h.events(), event.ToolCompleted) {
		if p, err := ev.Payload(); err == nil && p.(event.ToolCompletedData).ToolCallID == "c1" {
			result = p.(event.ToolCompletedData)
		}
	}
	if !result.IsError || !strings.Contains(result.Output, "changed after its diff was approved") {
		t.Fatalf("the Edit's result: %+v", result)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "f.txt")); string(b) != changed {
		t.Fatalf("the file was written after a change the approval did not see: %q", b)
	}
}
