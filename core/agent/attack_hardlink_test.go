package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/tools"
)

// TestAttackHardLinkToHiddenFile: a real hard link in the workspace to
// ~/.ssh/id_rsa (made outside pincer: the sandbox hides the file) is refused
// like the symlink: Read is denied up front and never asked, Grep of the
// workspace does not find its lines, Edit cannot use it as an oracle — in
// every mode. The workspace's own multiply-linked file still reads.
func TestAttackHardLinkToHiddenFile(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, v := range []string{"PINCER_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"} {
		t.Setenv(v, "")
	}
	key := filepath.Join(home, ".ssh", "id_rsa")
	mustWriteFile(t, key, outsideMarker+"-ssh\n")
	for _, mode := range []permission.Mode{permission.ModeDefault, permission.ModeAcceptEdits, permission.ModePlan, permission.ModeBypass, permission.ModeDontAsk} {
		t.Run(string(mode), func(t *testing.T) {
			ap := &inputApprover{allow: true}
			prov := &providertest.Scripted{}
			h := newHarnessWith(t, prov, memory.New(), Config{Approver: ap, Home: home, PermissionMode: mode},
				tools.Typed(tools.Read{}), tools.Typed(tools.Grep{}), tools.Typed(tools.Edit{}))
			root := h.ag.cfg.Workspace.Root()
			if err := os.Link(key, filepath.Join(root, "k")); err != nil {
				t.Fatal(err)
			}
			mustWriteFile(t, filepath.Join(root, "own"), "own-"+outsideMarker[:7]+"\n")
			if err := os.Link(filepath.Join(root, "own"), filepath.Join(root, "own2")); err != nil {
				t.Fatal(err)
			}
			prov.Steps = []providertest.Step{
				providertest.ToolCalls(
					providertest.ToolCall("c1", "Read", `{"file_path":"k"}`),
					providertest.ToolCall("c2", "Grep", `{"pattern":"MARKER","path":".","output_mode":"content"}`),
					providertest.ToolCall("c3", "Edit", `{"file_path":"k","old_string":"`+outsideMarker+`","new_string":"x"}`),
					providertest.ToolCall("c4", "Read", `{"file_path":"own2"}`)),
				{Events: providertest.TextEvents("ok")},
			}
			h.submit(context.Background(), "read it")
			res := h.toolResults()
			for _, id := range []string{"c1", "c2", "c3"} {
				if got := res[id].Text; strings.Contains(got, outsideMarker) || strings.Contains(got, "OUTSIDE-") {
					t.Errorf("LEAK (%s): %q", id, got)
				}
			}
			if got := res["c1"].Text; !strings.Contains(got, "never read") {
				t.Errorf("Read of the hard link = %q, want the up-front denial", got)
			}
			if got := res["c3"].Text; strings.Contains(got, "success") || strings.Contains(got, "updated") {
				t.Errorf("Edit through the hard link = %q", got)
			}
			if b, _ := os.ReadFile(key); string(b) != outsideMarker+"-ssh\n" {
				t.Errorf("the key changed: %q", b)
			}
			for _, req := range ap.seen {
				if req.Tool == "Read" {
					t.Errorf("asked for a read that can never run: %v", req.Paths)
				}
			}
			if mode != permission.ModeDontAsk && mode != permission.ModePlan {
				if got := res["c4"].Text; !strings.Contains(got, "own-OUTSIDE") {
					t.Errorf("the workspace's own hard-linked file did not read: %q", got)
				}
			}
		})
	}
}
