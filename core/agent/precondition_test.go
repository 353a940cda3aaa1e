package agent

import (
	"context"
	"encoding/json"
	"errors"
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

// previewFailTool is an edit tool whose Preview fails for a reason that is
// not a precondition of the tool (its diff "cannot be shown"): the call must
// still be asked.
type previewFailTool struct{ fakeTool }

func (p *previewFailTool) Preview(*tools.Env, json.RawMessage) (string, error) {
	return "", errors.New("diff too big to show")
}

// TestPreconditionFailsWithoutAsking: through the real engine with the
// scripted provider, an Edit of a file not read yet and an Edit whose
// old_string is not in the (read) file fail at once as tool results the model
// reads (the tool's own error), without a permission.requested and without
// the Approver being called; the denial is audited as the tool's, never as a
// person's. A Bash call and an edit tool whose preview fails for another
// reason are still asked, and a denial of them still runs nothing.
func TestPreconditionFailsWithoutAsking(t *testing.T) {
	other := &previewFailTool{fakeTool{name: "BigEdit", kind: tools.KindEdit}}
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c0", "Read", `{"file_path":"read.py"}`)),
		providertest.ToolCalls(
			providertest.ToolCall("c1", "Edit", `{"file_path":"settings.py","old_string":"A = 1","new_string":"A = 2"}`),
			providertest.ToolCall("c2", "Edit", `{"file_path":"read.py","old_string":"nowhere","new_string":"x"}`),
			providertest.ToolCall("c3", "Bash", `{"command":"touch ran.txt"}`),
			providertest.ToolCall("c4", "BigEdit", `{"x":"y"}`),
		),
		{Events: providertest.TextEvents("ok")},
	}}
	approver := &inputApprover{allow: false}
	h := newHarnessWith(t, prov, memory.New(), Config{Approver: approver}, append(tools.Default().All(), other)...)
	root := h.ag.cfg.Workspace.Root()
	for name, content := range map[string]string{"settings.py": "A = 1\n", "read.py": "B = 1\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h.submit(context.Background(), "edit it")

	asked := map[string]bool{}
	for _, ev := range eventsOf(h.events(), event.PermissionRequested) {
		var d event.PermissionRequestedData
		if err := ev.Decode(&d); err != nil {
			t.Fatal(err)
		}
		asked[d.ToolCallID] = true
		if d.ToolCallID == "c4" && (d.PreviewError != "diff too big to show" || d.Diff != "") {
			t.Errorf("BigEdit request %+v: want its preview error and no diff", d)
		}
	}
	if asked["c1"] || asked["c2"] {
		t.Errorf("a call that cannot succeed was asked: %v", asked)
	}
	if !asked["c3"] || !asked["c4"] {
		t.Errorf("Bash and an edit whose preview merely failed must still be asked: %v", asked)
	}
	if len(approver.seen) != 2 {
		t.Errorf("the Approver was called %d times, want 2 (Bash, BigEdit)", len(approver.seen))
	}
	results := h.toolResults()
	for id, want := range map[string]string{"c1": "File has not been read yet", "c2": "String to replace not found"} {
		r := results[id]
		if !r.IsError || !strings.HasPrefix(r.Text, failedPrefix) || !strings.Contains(r.Text, want) {
			t.Errorf("%s result %+v: want a failed tool result with %q", id, r, want)
		}
	}
	if r := results["c3"]; !strings.HasPrefix(r.Text, deniedPrefix) {
		t.Errorf("Bash result %q: want a denial", r.Text)
	}
	if other.runCount.Load() != 0 {
		t.Error("the denied BigEdit ran")
	}
	if _, err := os.Stat(filepath.Join(root, "ran.txt")); err == nil {
		t.Error("the denied Bash ran")
	}
	if b, _ := os.ReadFile(filepath.Join(root, "settings.py")); string(b) != "A = 1\n" {
		t.Errorf("settings.py changed: %q", b)
	}
	entries, err := h.store.ListAudit(context.Background(), h.sess.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.ToolCallID == "c1" || e.ToolCallID == "c2" {
			if e.Decision != string(permission.Deny) || e.By == "user" {
				t.Errorf("audit of %s: %+v: want a denial not by the user", e.ToolCallID, e)
			}
		}
	}
}
