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

// outsideMarker is the payload of every file the attacks below try to read:
// a result that contains it read the file.
const outsideMarker = "OUTSIDE-MARKER-5e1f"

// TestAttackReadsOutsideThroughEngine is issue 12, Found 3, through the real
// engine (agent, permission.Evaluate, the real Read/Glob/Grep tools): what a
// person is asked is what runs. A read outside the workspace asks once and,
// approved, reads (as Claude Code); denied, it reads nothing. A credentials
// location or pincer's data directory — directly, through a symlink in the
// workspace, or below a directory a search would walk — is denied up front and
// never asked, approval or not.
func TestAttackReadsOutsideThroughEngine(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, v := range []string{"PINCER_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"} {
		t.Setenv(v, "")
	}
	outside := t.TempDir()
	mustWriteFile(t, filepath.Join(outside, "notes.txt"), outsideMarker+"-notes\n")
	sshKey := filepath.Join(home, ".ssh", "id_rsa")
	mustWriteFile(t, sshKey, outsideMarker+"-ssh\n")
	dataFile := filepath.Join(home, ".local", "share", "pincer", "store", "000001.vlog")
	mustWriteFile(t, dataFile, outsideMarker+"-store\n")
	mustWriteFile(t, filepath.Join(home, "todo.txt"), outsideMarker+"-home\n")

	// {OUT} is the outside directory relative to the workspace (../...).
	type attack struct {
		name, tool, args string
		links            map[string]string // workspace name -> target, made before the call
		leak             string            // what an approved read shows ("" = never runs)
	}
	attacks := []attack{
		{name: "Read-dotdot", tool: "Read", args: `{"file_path":"{OUT}/notes.txt"}`, leak: outsideMarker + "-notes"},
		{name: "Read-absolute", tool: "Read", args: `{"file_path":"` + filepath.Join(outside, "notes.txt") + `"}`, leak: outsideMarker + "-notes"},
		{name: "Read-etc-passwd-via-symlink", tool: "Read", args: `{"file_path":"pw"}`, links: map[string]string{"pw": "/etc/passwd"}, leak: "root:"},
		{name: "Glob-outside", tool: "Glob", args: `{"pattern":"*.txt","path":"` + outside + `"}`, leak: "notes.txt"},
		{name: "Grep-outside", tool: "Grep", args: `{"pattern":"MARKER","path":"` + outside + `","output_mode":"content"}`, leak: outsideMarker + "-notes"},
		{name: "Read-ssh-key", tool: "Read", args: `{"file_path":"` + sshKey + `"}`},
		{name: "Read-ssh-key-tilde-dotdot", tool: "Read", args: `{"file_path":"` + filepath.Join(home, "x", "..", ".ssh", "id_rsa") + `"}`},
		{name: "Read-ssh-key-via-symlink", tool: "Read", args: `{"file_path":"k"}`, links: map[string]string{"k": sshKey}},
		{name: "Read-ssh-dir-via-symlink", tool: "Read", args: `{"file_path":"s/id_rsa"}`, links: map[string]string{"s": filepath.Dir(sshKey)}},
		{name: "Read-data-dir", tool: "Read", args: `{"file_path":"` + dataFile + `"}`},
		{name: "Grep-home", tool: "Grep", args: `{"pattern":"MARKER","path":"` + home + `","output_mode":"content"}`},
		{name: "Glob-home", tool: "Glob", args: `{"pattern":"**/*","path":"` + home + `"}`},
		{name: "Grep-data-dir", tool: "Grep", args: `{"pattern":"MARKER","path":"` + filepath.Dir(dataFile) + `"}`},
		{name: "Glob-ssh-via-symlink", tool: "Glob", args: `{"pattern":"*","path":"s"}`, links: map[string]string{"s": filepath.Dir(sshKey)}},
	}
	for _, a := range attacks {
		for _, approve := range []bool{true, false} {
			name := a.name + map[bool]string{true: "/approved", false: "/denied"}[approve]
			t.Run(name, func(t *testing.T) {
				ap := &inputApprover{allow: approve}
				prov := &providertest.Scripted{}
				h := newHarnessWith(t, prov, memory.New(), Config{Approver: ap, Home: home},
					tools.Typed(tools.Read{}), tools.Typed(tools.Glob{}), tools.Typed(tools.Grep{}))
				rel, err := filepath.Rel(h.ag.cfg.Workspace.Root(), outside)
				if err != nil || !strings.HasPrefix(rel, "../") {
					t.Fatalf("rel = %q, %v", rel, err)
				}
				prov.Steps = []providertest.Step{
					providertest.ToolCalls(providertest.ToolCall("c1", a.tool, strings.ReplaceAll(a.args, "{OUT}", rel))),
					{Events: providertest.TextEvents("ok")},
				}
				for name, target := range a.links {
					if err := os.Symlink(target, filepath.Join(h.ag.cfg.Workspace.Root(), name)); err != nil {
						t.Fatal(err)
					}
				}
				h.submit(context.Background(), "read it")
				got := h.toolResults()["c1"].Text
				switch {
				case a.leak == "": // hidden: denied up front, never asked
					if strings.Contains(got, outsideMarker) {
						t.Fatalf("LEAK: %s read a hidden path: %q", a.tool, got)
					}
					if len(ap.seen) != 0 {
						t.Fatalf("asked %d times for a read that can never run", len(ap.seen))
					}
					if !strings.Contains(got, "never read") {
						t.Fatalf("result = %q, want the up-front denial", got)
					}
				case approve:
					if len(ap.seen) != 1 {
						t.Fatalf("asked %d times, want 1", len(ap.seen))
					}
					if !strings.Contains(got, a.leak) {
						t.Fatalf("approved, but the read did not run: %q (want %q)", got, a.leak)
					}
				default:
					if len(ap.seen) != 1 {
						t.Fatalf("asked %d times, want 1", len(ap.seen))
					}
					if strings.Contains(got, a.leak) || strings.Contains(got, outsideMarker) {
						t.Fatalf("LEAK: denied, but read: %q", got)
					}
				}
			})
		}
	}
}

// TestHiddenReadEveryMode: the up-front denial of a hidden read holds in
// bypassPermissions and under an allow rule for the very path.
func TestHiddenReadEveryMode(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	key := filepath.Join(home, ".ssh", "id_rsa")
	mustWriteFile(t, key, outsideMarker+"\n")
	in, _ := json.Marshal(map[string]string{"file_path": key})
	for _, cfg := range []Config{
		{PermissionMode: permission.ModeBypass, Home: home},
		{Rules: permission.RuleSet{}.Add(permission.Allow, mustRule(t, "Read(/"+key+")")), Home: home},
	} {
		prov := &providertest.Scripted{Steps: []providertest.Step{
			providertest.ToolCalls(providertest.ToolCall("c1", "Read", string(in))),
			{Events: providertest.TextEvents("ok")},
		}}
		h := newHarnessWith(t, prov, memory.New(), cfg, tools.Typed(tools.Read{}))
		h.submit(context.Background(), "read it")
		if got := h.toolResults()["c1"].Text; strings.Contains(got, outsideMarker) || !strings.Contains(got, "never read") {
			t.Fatalf("mode %q: result = %q", cfg.PermissionMode, got)
		}
	}
}

func mustWriteFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
