package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/event"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/tools"
)

// TestPermissionRequestedCarriesDiff: an asked Edit of a CRLF file announces
// in permission.requested the diff that tool.completed then carries (both
// redacted); a Write that cannot succeed (not read) is not asked but fails with
// the tool's own error (TestPreconditionFailsWithoutAsking); a tool without
// Preview announces neither diff nor PreviewError.
func TestPermissionRequestedCarriesDiff(t *testing.T) {
	const secret = "sk-preview-SECRET-0123456789"
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c0", "Read", `{"file_path":"f.txt"}`)),
		providertest.ToolCalls(
			providertest.ToolCall("c1", "Edit", `{"file_path":"f.txt","old_string":"two\nthree","new_string":"2\n3 `+secret+`"}`),
			providertest.ToolCall("c2", "Write", `{"file_path":"unread.txt","content":"x\n"}`),
			providertest.ToolCall("c3", "Bash", `{"command":"echo hi > out.txt"}`),
		),
		{Events: providertest.TextEvents("ok")},
	}}
	cfg := Config{Approver: &inputApprover{allow: true}, Redactor: NewRedactor(map[string]string{"TEST_KEY": secret})}
	h := newHarnessWith(t, prov, memory.New(), cfg, tools.Default().All()...)
	root := h.ag.cfg.Workspace.Root()
	for name, content := range map[string]string{"f.txt": "one\r\ntwo\r\nthree\r\n", "unread.txt": "old\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h.submit(context.Background(), "edit it")

	requested := map[string]event.PermissionRequestedData{}
	for _, ev := range eventsOf(h.events(), event.PermissionRequested) {
		var d event.PermissionRequestedData
		if err := ev.Decode(&d); err != nil {
			t.Fatal(err)
		}
		requested[d.ToolCallID] = d
	}
	completed := map[string]event.ToolCompletedData{}
	for _, ev := range eventsOf(h.events(), event.ToolCompleted) {
		var d event.ToolCompletedData
		if err := ev.Decode(&d); err != nil {
			t.Fatal(err)
		}
		completed[d.ToolCallID] = d
	}

	edit, ok := requested["c1"]
	if !ok {
		t.Fatalf("the Edit was not asked: %v", requested)
	}
	if edit.Diff == "" || edit.Diff != completed["c1"].Diff {
		t.Fatalf("permission.requested diff %q, tool.completed diff %q: want equal and non-empty", edit.Diff, completed["c1"].Diff)
	}
	if !strings.Contains(edit.Diff, "-two\r\n-three\r\n+2\r\n+3 [redacted: TEST_KEY]\r\n") || strings.Contains(edit.Diff, secret) {
		t.Errorf("diff is not the CRLF-kept, redacted change: %q", edit.Diff)
	}
	if edit.PreviewError != "" {
		t.Errorf("PreviewError = %q for a call that ran", edit.PreviewError)
	}

	if write, ok := requested["c2"]; ok || !strings.Contains(completed["c2"].Output, "has not been read") {
		t.Errorf("Write of an unread file: asked %v (%+v), tool result %q: want a failure without asking", ok, write, completed["c2"].Output)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "unread.txt")); string(b) != "old\n" {
		t.Errorf("unread.txt changed: %q", b)
	}

	if bash, ok := requested["c3"]; !ok || bash.Diff != "" || bash.PreviewError != "" {
		t.Errorf("Bash: %+v (asked %v): want no diff and no preview error", bash, ok)
	}
}
