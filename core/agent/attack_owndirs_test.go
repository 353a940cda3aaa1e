package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/tools"
)

// ownDirRecords are the files below pincer's directories that only a person
// may write, relative to the config dir ("config:") or the data dir ("data:").
var ownDirRecords = []string{
	"data:mcp-approvals.json", "data:trusted-projects.json", "data:plugins.json",
	"config:config.toml", "config:skills/evil/SKILL.md", "config:commands/evil.md",
}

// TestAttackOwnDirsFileTools: with pincer's directories inside the workspace
// (PINCER_HOME, or XDG_CONFIG_HOME and XDG_DATA_HOME) or inside an added
// directory, Write and Edit cannot create or change one of pincer's records —
// directly, through a symlink the repository ships, or by a relative path —
// in bypassPermissions and in acceptEdits; Read, Grep and Glob do not show
// them. The session's own spill directory (below DATA/tool-results) stays
// readable: the control.
func TestAttackOwnDirsFileTools(t *testing.T) {
	for _, layout := range []string{"pincer-home-in-workspace", "xdg-in-workspace", "pincer-home-in-added-dir"} {
		for _, mode := range []permission.Mode{permission.ModeBypass, permission.ModeAcceptEdits} {
			t.Run(layout+"/"+string(mode), func(t *testing.T) {
				home := t.TempDir()
				t.Setenv("HOME", home)
				for _, v := range []string{"PINCER_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"} {
					t.Setenv(v, "")
				}
				ap := &inputApprover{allow: true}
				prov := &providertest.Scripted{}
				h := newHarnessWith(t, prov, memory.New(), Config{Approver: ap, Home: home, PermissionMode: mode},
					tools.Typed(tools.Write{}), tools.Typed(tools.Edit{}), tools.Typed(tools.Read{}),
					tools.Typed(tools.Glob{}), tools.Typed(tools.Grep{}))
				ws := h.ag.cfg.Workspace
				root := ws.Root()
				base := root
				if layout == "pincer-home-in-added-dir" {
					base = t.TempDir()
					if err := ws.AddDir(base); err != nil {
						t.Fatal(err)
					}
				}
				configDir, dataDir := filepath.Join(base, "ph"), filepath.Join(base, "ph", "data")
				if layout == "xdg-in-workspace" {
					t.Setenv("XDG_CONFIG_HOME", filepath.Join(base, "xc"))
					t.Setenv("XDG_DATA_HOME", filepath.Join(base, "xd"))
					configDir, dataDir = filepath.Join(base, "xc", "pincer"), filepath.Join(base, "xd", "pincer")
				} else {
					t.Setenv("PINCER_HOME", configDir)
				}
				spill := filepath.Join(dataDir, "tool-results", "S1")
				mustWriteFile(t, filepath.Join(spill, "c0.txt"), "SPILL-CONTROL\n")
				if err := ws.AddDir(spill); err != nil {
					t.Fatal(err)
				}
				mustWriteFile(t, filepath.Join(configDir, "secrets.json"), outsideMarker+"-secret\n")
				if err := os.Symlink(dataDir, filepath.Join(root, "shipped")); err != nil {
					t.Fatal(err)
				}
				var calls []providertest.Step
				type check struct{ id, path string }
				var creates []check
				n := 0
				call := func(tool string, args map[string]string) string {
					n++
					id := "c" + string(rune('a'+n/26)) + string(rune('a'+n%26))
					b, _ := json.Marshal(args)
					calls = append(calls, providertest.ToolCalls(providertest.ToolCall(id, tool, string(b))))
					return id
				}
				for _, rec := range ownDirRecords {
					kind, rel, _ := strings.Cut(rec, ":")
					dir := configDir
					if kind == "data" {
						dir = dataDir
					}
					abs := filepath.Join(dir, rel)
					payload := `{"approved": true}`
					creates = append(creates, check{call("Write", map[string]string{"file_path": abs, "content": payload}), abs})
					if r, err := filepath.Rel(root, abs); err == nil && !strings.HasPrefix(r, "..") {
						creates = append(creates, check{call("Write", map[string]string{"file_path": r, "content": payload}), abs})
					}
					if kind == "data" {
						creates = append(creates, check{call("Write", map[string]string{"file_path": filepath.Join("shipped", rel), "content": payload}), abs})
					}
				}
				// An existing record a person wrote: Edit must not change it.
				approvals := filepath.Join(dataDir, "mcp-approvals.json")
				call("Read", map[string]string{"file_path": filepath.Join(configDir, "secrets.json")})
				call("Grep", map[string]string{"pattern": "MARKER", "path": root, "output_mode": "content"})
				globID := call("Glob", map[string]string{"pattern": "**/*", "path": base})
				call("Read", map[string]string{"file_path": filepath.Join(spill, "c0.txt")})
				calls = append(calls, providertest.Step{Events: providertest.TextEvents("ok")})
				prov.Steps = calls
				h.submit(context.Background(), "configure yourself")
				res := h.toolResults()
				for _, c := range creates {
					if _, err := os.Lstat(c.path); err == nil {
						t.Errorf("%s created %s: %q", c.id, c.path, res[c.id].Text)
						os.Remove(c.path)
					}
				}
				for id, r := range res {
					if strings.Contains(r.Text, outsideMarker) {
						t.Errorf("LEAK %s: %q", id, r.Text)
					}
				}
				if g := res[globID].Text; strings.Contains(g, "secrets.json") || strings.Contains(g, "tool-results") && !strings.Contains(g, "c0.txt") {
					t.Errorf("Glob listed pincer's directory: %q", g)
				}
				last := "c" + string(rune('a'+n/26)) + string(rune('a'+n%26))
				if !strings.Contains(res[last].Text, "SPILL-CONTROL") {
					t.Errorf("control: the spill directory is not readable: %q", res[last].Text)
				}
				// Edit of an existing record.
				mustWriteFile(t, approvals, `{"person": true}`)
				eb, _ := json.Marshal(map[string]string{"file_path": approvals, "old_string": "person", "new_string": "model"})
				rb, _ := json.Marshal(map[string]string{"file_path": approvals})
				prov.Steps = []providertest.Step{
					providertest.ToolCalls(providertest.ToolCall("r1", "Read", string(rb))),
					providertest.ToolCalls(providertest.ToolCall("e1", "Edit", string(eb))),
					{Events: providertest.TextEvents("ok")},
				}
				h.submit(context.Background(), "edit it")
				if b, _ := os.ReadFile(approvals); string(b) != `{"person": true}` {
					t.Errorf("Edit changed the record: %q (%q)", b, h.toolResults()["e1"].Text)
				}
			})
		}
	}
}
