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

// TestSpillReadableOthersNot (issue 17): after a long Bash output is saved to
// the session's spill directory (below pincer's data directory, outside the
// workspace), Read, Grep and Glob of that directory run — the result told
// the model to use them — in every mode; another session's spill files,
// pincer's store and its secrets stay denied, by path, through a symlink in
// the workspace and by a search of the directories holding them. With
// PINCER_HOME set and with the XDG default below HOME, each also through a
// symbolic link (the result names the path as written, the workspace holds
// the directory resolved).
func TestSpillReadableOthersNot(t *testing.T) {
	for _, layout := range []string{"pincer-home", "pincer-home-via-symlink", "xdg-default", "xdg-via-symlink"} {
		for _, mode := range []permission.Mode{permission.ModeDefault, permission.ModeAcceptEdits, permission.ModeBypass} {
			t.Run(layout+"/"+string(mode), func(t *testing.T) {
				home := t.TempDir()
				t.Setenv("HOME", home)
				for _, v := range []string{"PINCER_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"} {
					t.Setenv(v, "")
				}
				configDir, dataDir := filepath.Join(home, ".config", "pincer"), filepath.Join(home, ".local", "share", "pincer")
				switch layout {
				case "pincer-home", "pincer-home-via-symlink":
					configDir = filepath.Join(t.TempDir(), "ph")
					if layout == "pincer-home-via-symlink" { // PINCER_HOME names a link (macOS /tmp, a dotfiles link)
						real := t.TempDir()
						if err := os.Symlink(real, configDir); err != nil {
							t.Fatal(err)
						}
					}
					dataDir = filepath.Join(configDir, "data")
					t.Setenv("PINCER_HOME", configDir)
				case "xdg-via-symlink": // ~/.local/share is a link, as dotfiles managers make it
					real := t.TempDir()
					if err := os.MkdirAll(filepath.Join(home, ".local"), 0o700); err != nil {
						t.Fatal(err)
					}
					if err := os.Symlink(real, filepath.Join(home, ".local", "share")); err != nil {
						t.Fatal(err)
					}
				}
				spillRoot := filepath.Join(dataDir, "tool-results")
				ap := &inputApprover{allow: true}
				prov := &providertest.Scripted{}
				h := newHarnessWith(t, prov, memory.New(), Config{Approver: ap, Home: home, PermissionMode: mode, SpillRoot: spillRoot},
					tools.Typed(tools.Bash{}), tools.Typed(tools.Read{}), tools.Typed(tools.Glob{}), tools.Typed(tools.Grep{}))
				root := h.ag.cfg.Workspace.Root()
				other := filepath.Join(spillRoot, "other-session", "c1.txt")
				mustWriteFile(t, other, outsideMarker+"-spill\n")
				mustWriteFile(t, filepath.Join(configDir, "secrets.json"), outsideMarker+"-secret\n")
				mustWriteFile(t, filepath.Join(dataDir, "store", "000001.vlog"), outsideMarker+"-store\n")
				if err := os.Symlink(dataDir, filepath.Join(root, "data-link")); err != nil {
					t.Fatal(err)
				}
				own := filepath.Join(spillRoot, h.sess.ID, "b1.txt")
				args := func(m map[string]any) string { b, _ := json.Marshal(m); return string(b) }
				prov.Steps = []providertest.Step{
					providertest.ToolCalls(providertest.ToolCall("b1", "Bash", args(map[string]any{"command": "seq 1 300000"}))),
					providertest.ToolCalls(
						providertest.ToolCall("r1", "Read", args(map[string]any{"file_path": own, "offset": 299999})),
						providertest.ToolCall("g1", "Grep", args(map[string]any{"pattern": "^299998$", "path": own, "output_mode": "content"})),
						providertest.ToolCall("g2", "Glob", args(map[string]any{"pattern": "*.txt", "path": filepath.Dir(own)})),
					),
					providertest.ToolCalls(
						providertest.ToolCall("x1", "Read", args(map[string]any{"file_path": other})),
						providertest.ToolCall("x2", "Read", args(map[string]any{"file_path": filepath.Join(configDir, "secrets.json")})),
						providertest.ToolCall("x3", "Read", args(map[string]any{"file_path": filepath.Join(dataDir, "store", "000001.vlog")})),
						providertest.ToolCall("x4", "Read", args(map[string]any{"file_path": filepath.Join(root, "data-link", "tool-results", "other-session", "c1.txt")})),
						providertest.ToolCall("x5", "Grep", args(map[string]any{"pattern": "MARKER", "path": spillRoot, "output_mode": "content"})),
						providertest.ToolCall("x6", "Grep", args(map[string]any{"pattern": "MARKER", "path": dataDir, "output_mode": "content"})),
						providertest.ToolCall("x7", "Glob", args(map[string]any{"pattern": "**/*", "path": spillRoot})),
						providertest.ToolCall("x8", "Read", args(map[string]any{"file_path": filepath.Join(filepath.Dir(own), "..", "other-session", "c1.txt")})),
						providertest.ToolCall("x9", "Grep", args(map[string]any{"pattern": "MARKER", "path": filepath.Join(root, "data-link"), "output_mode": "content"})),
					),
					{Events: providertest.TextEvents("ok")},
				}
				h.submit(context.Background(), "count")
				res := h.toolResults()
				if !strings.Contains(res["b1"].Text, own) {
					t.Fatalf("the Bash result names no spill file %s: ...%s", own, res["b1"].Text[max(0, len(res["b1"].Text)-300):])
				}
				if r := res["r1"]; r.IsError || !strings.Contains(r.Text, "300000") {
					t.Errorf("Read of the own spill file: %q", r.Text)
				}
				if r := res["g1"]; r.IsError || !strings.Contains(r.Text, "299998") {
					t.Errorf("Grep of the own spill file: %q", r.Text)
				}
				if r := res["g2"]; r.IsError || !strings.Contains(r.Text, "b1.txt") {
					t.Errorf("Glob of the own spill directory: %q", r.Text)
				}
				for id, r := range res {
					if strings.Contains(r.Text, outsideMarker) || strings.Contains(r.Text, "other-session") && strings.HasPrefix(id, "x7") {
						t.Errorf("LEAK %s: %q", id, r.Text)
					}
				}
			})
		}
	}
}
