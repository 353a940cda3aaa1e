package agent

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/tools"
)

// patchMarker is the content every attack below tries to write.
const patchMarker = "PATCH-MARKER-7a3c"

// patchWorkspace lays out the files the attacks aim at, each holding
// "PERSON\n" (what a person wrote), and the symlinks into them the repository
// could ship: gitlink -> .git, claudelink -> .claude.
func patchWorkspace(t *testing.T, root string) {
	t.Helper()
	for _, rel := range []string{".git/config", ".git/hooks/pre-commit", ".pincer/settings.toml",
		".claude/settings.json", ".claude/settings.local.json", "secret/key.txt", "ok.txt", "src.txt", "a/keep.txt"} {
		mustWriteFile(t, filepath.Join(root, rel), "PERSON\n")
	}
	for name, target := range map[string]string{"gitlink": ".git", "claudelink": ".claude"} {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshotTree maps every entry below root to its content (a symlink to
// "-> target", a directory to "dir").
func snapshotTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			out[rel] = "-> " + l
		case d.IsDir():
			out[rel] = "dir"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// diffTrees lists what changed between two snapshots.
func diffTrees(before, after map[string]string) []string {
	var out []string
	for k, v := range after {
		if b, ok := before[k]; !ok {
			out = append(out, "created "+k)
		} else if b != v {
			out = append(out, "changed "+k+": "+v)
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			out = append(out, "removed "+k)
		}
	}
	return out
}

// patchAttack is one call of apply_patch or MultiEdit: want is what the engine
// must do with it ("ask": put it to a person, who denies; "deny": refuse it
// up front, never asked); paths are workspace-relative names (symlinks
// resolved) of protected or denied files that must be among the paths the
// person is shown.
type patchAttack struct {
	name, tool, args string
	want             string
	paths            []string
}

func applyPatchArgs(body string) string {
	b, _ := json.Marshal(map[string]string{"input": "*** Begin Patch\n" + body + "*** End Patch"})
	return string(b)
}

func multiEditArgs(path string) string {
	b, _ := json.Marshal(map[string]any{"file_path": path, "edits": []map[string]string{
		{"old_string": "PERSON", "new_string": patchMarker}}})
	return string(b)
}

// patchAttacks are the forms: every hunk kind on every protected location,
// odd spellings of the paths, symlinked directories, a Move whose only
// protected side is its target, patches mixing an allowed file with a
// protected or denied one (the strictest decision of all the paths wins, and
// nothing at all is written), and a deny-ruled path.
func patchAttacks() []patchAttack {
	upd := func(p string) string { return "*** Update File: " + p + "\n@@\n-PERSON\n+" + patchMarker + "\n" }
	add := func(p string) string { return "*** Add File: " + p + "\n+" + patchMarker + "\n" }
	del := func(p string) string { return "*** Delete File: " + p + "\n" }
	mv := func(from, to string) string {
		return "*** Update File: " + from + "\n*** Move to: " + to + "\n@@\n-PERSON\n+" + patchMarker + "\n"
	}
	ap := func(name, body, want string, paths ...string) patchAttack {
		return patchAttack{name: "apply_patch/" + name, tool: "apply_patch", args: applyPatchArgs(body), want: want, paths: paths}
	}
	me := func(name, path, want string, paths ...string) patchAttack {
		return patchAttack{name: "MultiEdit/" + name, tool: "MultiEdit", args: multiEditArgs(path), want: want, paths: paths}
	}
	return []patchAttack{
		ap("update-git-config", upd(".git/config"), "ask", ".git/config"),
		ap("add-git-config", add(".git/config"), "ask", ".git/config"),
		ap("delete-git-config", del(".git/config"), "ask", ".git/config"),
		ap("add-git-hook", add(".git/hooks/x"), "ask", ".git/hooks/x"),
		ap("update-git-hook", upd(".git/hooks/pre-commit"), "ask", ".git/hooks/pre-commit"),
		ap("delete-git-hook", del(".git/hooks/pre-commit"), "ask", ".git/hooks/pre-commit"),
		ap("move-git-config-away", mv(".git/config", "moved.txt"), "ask", ".git/config"),
		ap("move-onto-git-config", mv("src.txt", ".git/config"), "ask", ".git/config"),
		ap("move-onto-new-git-hook", mv("src.txt", ".git/hooks/post-checkout"), "ask", ".git/hooks/post-checkout"),
		ap("move-onto-claude-settings", mv("src.txt", ".claude/settings.json"), "ask", ".claude/settings.json"),
		ap("add-pincer-settings", add(".pincer/settings.toml"), "ask", ".pincer/settings.toml"),
		ap("add-pincer-new", add(".pincer/hooks.toml"), "ask", ".pincer/hooks.toml"),
		ap("update-pincer-settings", upd(".pincer/settings.toml"), "ask", ".pincer/settings.toml"),
		ap("update-claude-settings", upd(".claude/settings.json"), "ask", ".claude/settings.json"),
		ap("update-claude-settings-local", upd(".claude/settings.local.json"), "ask", ".claude/settings.local.json"),
		ap("delete-claude-settings-local", del(".claude/settings.local.json"), "ask", ".claude/settings.local.json"),
		ap("add-claude-settings-local", add(".claude/settings.local.json"), "ask", ".claude/settings.local.json"),
		ap("dot-slash", upd("./.git/config"), "ask", ".git/config"),
		ap("double-slash", upd(".git//config"), "ask", ".git/config"),
		ap("dotdot-inside", upd("a/../.git/config"), "ask", ".git/config"),
		ap("upper-case", add(".GIT/hooks/x"), "ask"),
		ap("spaces-after-add-marker", add("   .git/hooks/pre-commit"), "ask", ".git/hooks/pre-commit"),
		ap("tab-and-spaces-around-add", add("\t .git/hooks/x  "), "ask", ".git/hooks/x"),
		ap("spaces-after-update-marker", upd("  .git/config"), "ask", ".git/config"),
		ap("spaces-after-delete-marker", del("  .claude/settings.local.json"), "ask", ".claude/settings.local.json"),
		ap("spaces-after-move-marker", mv("src.txt", "   .git/config"), "ask", ".git/config"),
		ap("spaces-deny-rule", add("  secret/new.txt"), "deny"),
		ap("symlinked-git-dir", upd("gitlink/config"), "ask", ".git/config"),
		ap("symlinked-git-dir-add-hook", add("gitlink/hooks/y"), "ask", ".git/hooks/y"),
		ap("symlinked-claude-dir", upd("claudelink/settings.local.json"), "ask", ".claude/settings.local.json"),
		ap("move-onto-symlinked-git-dir", mv("src.txt", "gitlink/config"), "ask", ".git/config"),
		ap("mixed-allowed-then-protected", add("new.txt")+upd("ok.txt")+upd(".git/config"), "ask", "new.txt", "ok.txt", ".git/config"),
		ap("mixed-protected-then-allowed", add(".claude/settings.local.json")+upd("ok.txt"), "ask", ".claude/settings.local.json", "ok.txt"),
		ap("deny-rule", upd("secret/key.txt"), "deny"),
		ap("deny-rule-add", add("secret/new.txt"), "deny"),
		ap("deny-rule-dot-slash", upd("./secret/key.txt"), "deny"),
		ap("mixed-allowed-then-denied", add("new.txt")+upd("ok.txt")+del("secret/key.txt"), "deny"),
		ap("mixed-protected-and-denied", upd(".git/config")+upd("secret/key.txt"), "deny"),
		ap("move-onto-denied", mv("src.txt", "secret/key.txt"), "deny"),
		ap("move-denied-away", mv("secret/key.txt", "free.txt"), "deny"),
		me("git-config", ".git/config", "ask", ".git/config"),
		me("git-hook", ".git/hooks/pre-commit", "ask", ".git/hooks/pre-commit"),
		me("dot-slash", "./.git/config", "ask", ".git/config"),
		me("double-slash", ".git//config", "ask", ".git/config"),
		me("dotdot-inside", "a/../.git/config", "ask", ".git/config"),
		me("symlinked-git-dir", "gitlink/config", "ask", ".git/config"),
		me("pincer-settings", ".pincer/settings.toml", "ask", ".pincer/settings.toml"),
		me("claude-settings", ".claude/settings.json", "ask", ".claude/settings.json"),
		me("claude-settings-local", ".claude/settings.local.json", "ask", ".claude/settings.local.json"),
		me("symlinked-claude-dir", "claudelink/settings.local.json", "ask", ".claude/settings.local.json"),
		me("deny-rule", "secret/key.txt", "deny"),
		me("deny-rule-dotdot", "a/../secret/key.txt", "deny"),
	}
}

// TestAttackPatchToolsProtected drives apply_patch and MultiEdit through the
// real engine (agent, permission.Evaluate, hooks, the real tools, the
// workspace's os.Root) against the protected paths and a deny rule
// (Edit(secret/**)) in default, acceptEdits and bypassPermissions modes: a
// protected path asks a person in every mode, as an Edit of it does, and the
// request lists every path the call writes; a denied path is refused up front
// whatever else the call writes; a person's "no" (and a deny) leaves the
// workspace byte for byte as it was, the allowed files of a mixed patch
// included. dontAsk denies both without asking.
func TestAttackPatchToolsProtected(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	rules := permission.RuleSet{}.Add(permission.Deny, mustRule(t, "Edit(secret/**)"))
	for _, mode := range []permission.Mode{permission.ModeDefault, permission.ModeAcceptEdits, permission.ModeBypass, permission.ModeDontAsk} {
		for _, a := range patchAttacks() {
			t.Run(string(mode)+"/"+a.name, func(t *testing.T) {
				ap := &inputApprover{allow: false}
				prov := &providertest.Scripted{}
				h := newHarnessWith(t, prov, memory.New(), Config{Approver: ap, Home: home, PermissionMode: mode, Rules: rules},
					tools.Typed(tools.ApplyPatch{}), tools.Typed(tools.MultiEdit{}), tools.Typed(tools.Read{}))
				root := h.ag.cfg.Workspace.Root()
				patchWorkspace(t, root)
				var steps []providertest.Step
				if a.tool == "MultiEdit" { // read first, so the call could succeed and really reaches the decision
					var in struct {
						FilePath string `json:"file_path"`
					}
					_ = json.Unmarshal([]byte(a.args), &in)
					rb, _ := json.Marshal(map[string]string{"file_path": in.FilePath})
					steps = append(steps, providertest.ToolCalls(providertest.ToolCall("r1", "Read", string(rb))))
				}
				prov.Steps = append(steps, providertest.ToolCalls(providertest.ToolCall("c1", a.tool, a.args)),
					providertest.Step{Events: providertest.TextEvents("ok")})
				before := snapshotTree(t, root)
				h.submit(context.Background(), "change it")
				res := h.toolResults()
				if a.tool == "MultiEdit" && !strings.Contains(res["r1"].Text, "PERSON") {
					t.Fatalf("the Read before did not read: %q", res["r1"].Text)
				}
				if d := diffTrees(before, snapshotTree(t, root)); len(d) > 0 {
					t.Errorf("the workspace changed: %v (result %q)", d, res["c1"].Text)
				}
				asks := 0
				if a.want == "ask" && mode != permission.ModeDontAsk {
					asks = 1
				}
				if len(ap.seen) != asks {
					t.Fatalf("asked %d times, want %d (result %q)", len(ap.seen), asks, res["c1"].Text)
				}
				if asks == 1 {
					for _, rel := range a.paths {
						want := filepath.Join(root, rel)
						found := false
						for _, p := range ap.seen[0].Paths {
							found = found || p == want
						}
						if !found {
							t.Errorf("the request does not list %s: %v", rel, ap.seen[0].Paths)
						}
					}
				}
			})
		}
	}
}

// TestAttackPatchToolsControl is the control of the attacks above: with the
// same workspace, rules and approver, a patch of ordinary files lands without
// a question in acceptEdits and bypassPermissions, and a protected path a
// person approves is written — so what stops the attacks is the decision.
func TestAttackPatchToolsControl(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	rules := permission.RuleSet{}.Add(permission.Deny, mustRule(t, "Edit(secret/**)"))
	for _, c := range []struct {
		mode  permission.Mode
		allow bool
		body  string
		asks  int
		file  string
	}{
		{permission.ModeAcceptEdits, false, "*** Add File: new.txt\n+" + patchMarker + "\n*** Update File: ok.txt\n@@\n-PERSON\n+" + patchMarker + "\n", 0, "ok.txt"},
		{permission.ModeBypass, false, "*** Update File: src.txt\n*** Move to: moved.txt\n@@\n-PERSON\n+" + patchMarker + "\n", 0, "moved.txt"},
		{permission.ModeBypass, true, "*** Update File: gitlink/config\n@@\n-PERSON\n+" + patchMarker + "\n", 1, ".git/config"},
		{permission.ModeAcceptEdits, true, "*** Add File: ok2.txt\n+x\n*** Update File: .claude/settings.local.json\n@@\n-PERSON\n+" + patchMarker + "\n", 1, ".claude/settings.local.json"},
	} {
		ap := &inputApprover{allow: c.allow}
		prov := &providertest.Scripted{Steps: []providertest.Step{
			providertest.ToolCalls(providertest.ToolCall("c1", "apply_patch", applyPatchArgs(c.body))),
			{Events: providertest.TextEvents("ok")},
		}}
		h := newHarnessWith(t, prov, memory.New(), Config{Approver: ap, Home: home, PermissionMode: c.mode, Rules: rules},
			tools.Typed(tools.ApplyPatch{}))
		root := h.ag.cfg.Workspace.Root()
		patchWorkspace(t, root)
		h.submit(context.Background(), "change it")
		if b, _ := os.ReadFile(filepath.Join(root, c.file)); string(b) != patchMarker+"\n" {
			t.Errorf("%s %s: %s = %q, want the patch's content (result %q)", c.mode, c.file, c.file, b, h.toolResults()["c1"].Text)
		}
		if len(ap.seen) != c.asks {
			t.Errorf("%s %s: asked %d times, want %d", c.mode, c.file, len(ap.seen), c.asks)
		}
	}
}
