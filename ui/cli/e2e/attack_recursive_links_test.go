package e2e

// Red team r21 F1, F5: a repository ships links leading outside (q/x to a
// file, q2/sub to a directory); a read-only command that follows the links
// it meets below the directories it names — GNU diff -r, grep -R spelled
// as an abbreviation of --dereference-recursive, wc --files0 (an
// abbreviation of --files0-from) — read the outside file unasked. They ask
// now; with no one to ask they are denied and nothing leaks.

import (
	"os"
	"path/filepath"
	"testing"
)

func TestAttackRecursiveReadsFollowLinks(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	a.outside = outsideTemp(t)
	const secret = "RT-RECURSIVE-OUTSIDE"
	mustWrite(t, filepath.Join(a.outside, "m.txt"), secret+"\n", 0o644)
	mustWrite(t, filepath.Join(a.repo, "r/x"), "plain\n", 0o644)
	mustWrite(t, filepath.Join(a.repo, "list"), filepath.Join(a.outside, "m.txt")+"\x00", 0o644)
	if err := os.MkdirAll(filepath.Join(a.repo, "q"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"q/x": filepath.Join(a.outside, "m.txt"), "q2": a.outside} {
		if err := os.Symlink(target, filepath.Join(a.repo, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(a.repo, "q3"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(a.outside, filepath.Join(a.repo, "q3/sub")); err != nil {
		t.Fatal(err)
	}
	forms := []attackForm{
		{Name: "diff-r", Cmd: "diff -r q r", Leak: secret},
		{Name: "diff-recur", Cmd: "diff --recur q r", Leak: secret},
		{Name: "grep-deref", Cmd: "grep --deref . q3", Leak: secret},
		{Name: "grep-dereference-rec", Cmd: "grep --dereference-rec RT q3", Leak: secret},
		{Name: "wc-files0", Cmd: "wc --files0=list", Leak: "m.txt"},
	}
	for _, mode := range []string{"default", "acceptEdits", "plan"} {
		r := a.runForms("rec", forms, "--permission-mode", mode)
		for _, c := range r.Results {
			if c.Decision == "allow" {
				t.Errorf("%s: %s ran unasked\n  %s", mode, c.Form.Name, c.describe())
			}
			c.checkEffects(t)
		}
		a.checkNoLeak(t, secret)
	}
}
