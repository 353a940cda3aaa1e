package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/tools"
)

// notebookMarker is the content every NotebookEdit attack below tries to
// write.
const notebookMarker = "NOTEBOOK-MARKER-41d9"

// personNotebook is a notebook a person wrote: one code cell "PERSON".
const personNotebook = `{"cells": [{"cell_type": "code", "id": "c1", "metadata": {}, "execution_count": null, "outputs": [], "source": ["PERSON\n"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}` + "\n"

// notebookWorkspace lays out the notebooks the attacks aim at, in the
// workspace's protected directories, a deny-ruled one and outside it, with
// the symlinks a repository could ship: gitlink -> .git, claudelink ->
// .claude, outlink -> the outside directory, outfile.ipynb -> a notebook
// outside. It returns the outside directory.
func notebookWorkspace(t *testing.T, root string) string {
	t.Helper()
	outside := t.TempDir()
	for _, p := range []string{".git/x.ipynb", ".git/hooks/h.ipynb", ".git/info/n.ipynb", ".claude/n.ipynb", ".pincer/n.ipynb",
		"secret/n.ipynb", "ok.ipynb", "a/keep.txt"} {
		mustWriteFile(t, filepath.Join(root, p), personNotebook)
	}
	mustWriteFile(t, filepath.Join(outside, "n.ipynb"), personNotebook)
	for name, target := range map[string]string{"gitlink": ".git", "claudelink": ".claude", "outlink": outside,
		"outfile.ipynb": filepath.Join(outside, "n.ipynb")} {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	return outside
}

// TestAttackNotebookEdit drives NotebookEdit through the real engine (agent,
// permission.Evaluate, hooks, the real tools, the workspace's os.Root)
// against notebooks in .git, .claude and .pincer (spelt plainly, ./, //,
// a/../ and through symlinked directories), a deny rule (Edit(secret/**)),
// ../ and absolute paths outside the workspace and symlinks out of it, in
// default, acceptEdits, bypassPermissions and dontAsk, with a person who says
// no: every call is checked against Edit of the same path and the same
// notebook text in the same mode, and may neither write where Edit could not
// nor be asked less often. Nothing protected, denied or outside ever holds
// the marker (.git/x.ipynb is no protected path: git never runs it, and
// both tools write it where the mode lets them).
func TestAttackNotebookEdit(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	rules := permission.RuleSet{}.Add(permission.Deny, mustRule(t, "Edit(secret/**)"))
	paths := []string{".git/x.ipynb", ".git/hooks/h.ipynb", "./.git/hooks/h.ipynb", ".git//hooks/h.ipynb",
		"a/../.git/hooks/h.ipynb", ".git/info/n.ipynb", "gitlink/hooks/h.ipynb", "gitlink/x.ipynb", ".claude/n.ipynb", "claudelink/n.ipynb", ".pincer/n.ipynb", "secret/n.ipynb",
		"./secret/n.ipynb", "a/../secret/n.ipynb", "{OUT}/n.ipynb", "{ABS}/n.ipynb", "outlink/n.ipynb", "outfile.ipynb"}
	type outcome struct {
		asks    int
		changed []string
	}
	run := func(t *testing.T, mode permission.Mode, tool, path string) outcome {
		ap := &inputApprover{allow: false}
		prov := &providertest.Scripted{}
		h := newHarnessWith(t, prov, memory.New(), Config{Approver: ap, Home: home, PermissionMode: mode, Rules: rules},
			tools.Typed(tools.NotebookEdit{}), tools.Typed(tools.Edit{}), tools.Typed(tools.Read{}))
		root := h.ag.cfg.Workspace.Root()
		outside := notebookWorkspace(t, root)
		rel, err := filepath.Rel(root, outside)
		if err != nil {
			t.Fatal(err)
		}
		path = strings.NewReplacer("{OUT}", rel, "{ABS}", outside).Replace(path)
		rb, _ := json.Marshal(map[string]string{"file_path": path})
		var args []byte
		if tool == "NotebookEdit" {
			args, _ = json.Marshal(map[string]string{"notebook_path": path, "cell_id": "c1", "new_source": notebookMarker, "edit_mode": "replace"})
		} else {
			args, _ = json.Marshal(map[string]string{"file_path": path, "old_string": `"PERSON\n"`, "new_string": `"` + notebookMarker + `"`})
		}
		prov.Steps = []providertest.Step{
			providertest.ToolCalls(providertest.ToolCall("r1", "Read", string(rb))),
			providertest.ToolCalls(providertest.ToolCall("c1", tool, string(args))),
			{Events: providertest.TextEvents("ok")},
		}
		before, beforeOut := snapshotTree(t, root), snapshotTree(t, outside)
		h.submit(context.Background(), "change it")
		var o outcome
		o.changed = append(diffTrees(before, snapshotTree(t, root)), diffTrees(beforeOut, snapshotTree(t, outside))...)
		o.asks = len(ap.seen)
		for _, dir := range []string{root, outside} {
			for rel, content := range snapshotTree(t, dir) {
				if !strings.Contains(content, notebookMarker) {
					continue
				}
				if _, protected := permission.Protected(filepath.Join(root, rel), []string{root}); dir == outside || protected ||
					strings.HasPrefix(rel, "secret/") {
					t.Errorf("%s holds the marker after %s of %s (result %q)", filepath.Join(dir, rel), tool, path, h.toolResults()["c1"].Text)
				}
			}
		}
		for i, c := range o.changed {
			o.changed[i], _, _ = strings.Cut(c, ":")
		}
		slices.Sort(o.changed)
		return o
	}
	for _, mode := range []permission.Mode{permission.ModeDefault, permission.ModeAcceptEdits, permission.ModeBypass, permission.ModeDontAsk} {
		for _, p := range paths {
			t.Run(string(mode)+"/"+p, func(t *testing.T) {
				nb := run(t, mode, "NotebookEdit", p)
				ed := run(t, mode, "Edit", p)
				if !slices.Equal(nb.changed, ed.changed) {
					t.Errorf("NotebookEdit changed %v, Edit %v", nb.changed, ed.changed)
				}
				if nb.asks < ed.asks {
					t.Errorf("NotebookEdit asked %d times, Edit %d", nb.asks, ed.asks)
				}
				protected := strings.Contains(p, "hooks/") || strings.Contains(p, "info/") || strings.Contains(p, "claude") || strings.Contains(p, ".pincer")
				if protected && mode != permission.ModeDontAsk && (nb.asks != 1 || ed.asks != 1) {
					t.Errorf("a protected notebook: NotebookEdit asked %d times, Edit %d, want 1 each", nb.asks, ed.asks)
				}
			})
		}
	}
}

// TestAttackNotebookEditControl is the control of the attacks above: the
// same harness writes an ordinary notebook in acceptEdits without a
// question, and a protected one a person approves, so what stops the attacks
// is the decision, not a broken call.
func TestAttackNotebookEditControl(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, c := range []struct {
		mode  permission.Mode
		allow bool
		path  string
		asks  int
	}{
		{permission.ModeAcceptEdits, false, "ok.ipynb", 0},
		{permission.ModeBypass, true, "gitlink/hooks/h.ipynb", 1},
	} {
		ap := &inputApprover{allow: c.allow}
		args, _ := json.Marshal(map[string]string{"notebook_path": c.path, "cell_id": "c1", "new_source": notebookMarker})
		rb, _ := json.Marshal(map[string]string{"file_path": c.path})
		prov := &providertest.Scripted{Steps: []providertest.Step{
			providertest.ToolCalls(providertest.ToolCall("r1", "Read", string(rb))),
			providertest.ToolCalls(providertest.ToolCall("c1", "NotebookEdit", string(args))),
			{Events: providertest.TextEvents("ok")},
		}}
		h := newHarnessWith(t, prov, memory.New(), Config{Approver: ap, Home: home, PermissionMode: c.mode},
			tools.Typed(tools.NotebookEdit{}), tools.Typed(tools.Read{}))
		root := h.ag.cfg.Workspace.Root()
		notebookWorkspace(t, root)
		h.submit(context.Background(), "change it")
		resolved, _ := filepath.EvalSymlinks(filepath.Join(root, c.path))
		if b, _ := os.ReadFile(resolved); !strings.Contains(string(b), notebookMarker) {
			t.Errorf("%s %s: not written: %q (result %q)", c.mode, c.path, b, h.toolResults()["c1"].Text)
		}
		if len(ap.seen) != c.asks {
			t.Errorf("%s %s: asked %d times, want %d", c.mode, c.path, len(ap.seen), c.asks)
		}
	}
}
