package e2e

// Red team r20 F1, F2: a background shell the person did not approve
// themselves (an auto-allowed read-only `tail -F`), started while its paths
// were plain files and directories inside the workspace, kept reading after
// a later command re-aimed them outside — a command only a repository's rule
// allows swapping a directory or a file for a link (F1), or acceptEdits'
// `mv` of a committed relative link to where it leads outside (F2). Such a
// shell now runs with its reads confined from its start, and says so; the
// outside content never reaches a tool result.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// unvouchedSecret is the outside file's content.
const unvouchedSecret = "RT-UNVOUCHED-OUTSIDE"

// unvouchedScene is taintScene with a plain directory d holding m.txt, an
// outside directory holding m.txt with unvouchedSecret, the scripts that
// swap d or t.txt for links to it, and a committed relative link
// a/b/c/d/e/x that leads inside the workspace where it is and outside once
// moved to the top (y).
func unvouchedScene(t *testing.T) (*attackEnv, string) {
	t.Helper()
	a := taintScene(t)
	out := filepath.Join(a.outside, "dir")
	mustWrite(t, filepath.Join(out, "m.txt"), unvouchedSecret+"\n", 0o644)
	mustWrite(t, filepath.Join(a.repo, "d/m.txt"), "plain\n", 0o644)
	mustWrite(t, filepath.Join(a.repo, "y/m.txt"), "plain\n", 0o644)
	mustWrite(t, filepath.Join(a.repo, "swapdir.sh"), "rm -rf d; ln -s "+out+" d; sleep 2\n", 0o644)
	mustWrite(t, filepath.Join(a.repo, "swapfile.sh"), "rm -f t.txt; ln -s "+filepath.Join(out, "m.txt")+" t.txt; echo go > ff; sleep 1\n", 0o644)
	up3 := filepath.Dir(filepath.Dir(filepath.Dir(a.repo)))
	rel, err := filepath.Rel(up3, out)
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(a.repo, "a/b/c/d/e/x")
	mustWrite(t, filepath.Join(a.repo, "a/b/c/d/e/keep"), "k\n", 0o644)
	if err := os.Symlink("../../../"+rel, link); err != nil {
		t.Fatal(err)
	}
	git(t, a.repo, "add", "a")
	git(t, a.repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "link")
	return a, out
}

// bashOutput is the arguments of a BashOutput call of id.
func bashOutput(id string) string {
	b, _ := json.Marshal(map[string]any{"bash_id": id})
	return string(b)
}

// TestAttackUnvouchedBackgroundReads: in each form an auto-allowed
// background `tail -F` starts on a plain path, a later allowed command
// re-aims the path outside, and BashOutput reads what the shell printed.
func TestAttackUnvouchedBackgroundReads(t *testing.T) {
	t.Parallel()
	tail := attackForm{Name: "tail-d", Args: bg("tail -F -s 0.1 d/m.txt")}
	wait := attackForm{Name: "wait", Args: timed("cat ff", 1500)} // nobody writes ff: 1.5 s
	cases := []struct {
		name  string
		mode  string
		forms []attackForm
	}{
		{"F1-project-rule-swaps-dir", "default", []attackForm{tail,
			{Name: "swap", Cmd: "sh swapdir.sh"}}},
		{"F1-project-rule-swaps-file", "default", []attackForm{{Name: "cat-t", Args: bg("cat ff t.txt")},
			{Name: "swap", Cmd: "sh swapfile.sh"}}},
		{"F2-acceptEdits-moves-link", "acceptEdits", []attackForm{{Name: "tail-y", Args: bg("tail -F -s 0.1 y/m.txt")},
			{Name: "rm", Cmd: "rm -rf y"}, {Name: "mv", Cmd: "mv a/b/c/d/e/x y"}, wait}},
		{"F2-acceptEdits-cat-follows", "acceptEdits", []attackForm{{Name: "cat-y", Args: bg("cat ff y/m.txt")},
			{Name: "rm", Cmd: "rm -rf y"}, {Name: "mv", Cmd: "mv a/b/c/d/e/x y"}, {Name: "go", Cmd: "echo go > ff"}, wait}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, _ := unvouchedScene(t)
			forms := append(tc.forms, attackForm{Name: "read", Tool: "BashOutput", Args: bashOutput("bash_1"), Leak: unvouchedSecret})
			r := a.runForms("unv", forms, "--permission-mode", tc.mode)
			start := r.Results[0]
			if start.Decision != "allow" || start.Rule != "" || !start.Completed || start.IsError {
				t.Fatalf("HARNESS: the background shell was not auto-allowed and started\n  %s", start.describe())
			}
			for _, c := range r.Results[1 : len(r.Results)-1] {
				if c.Decision != "allow" || !c.Completed {
					t.Fatalf("HARNESS: %s was not allowed and run\n  %s", c.Form.Name, c.describe())
				}
			}
			read := r.Results[len(r.Results)-1]
			if shown := []string{"plain", "Permission denied", unvouchedSecret}; !read.Completed ||
				!slices.ContainsFunc(shown, func(s string) bool { return strings.Contains(read.Output, s) }) {
				t.Fatalf("HARNESS: BashOutput shows nothing the shell read\n  %s", read.describe())
			}
			read.checkEffects(t)
			if !strings.Contains(start.Output, confinedMark) {
				t.Errorf("the background shell does not say its reads are confined\n  %s", start.describe())
			}
			a.checkNoLeak(t, unvouchedSecret)
		})
	}
}

// TestPersonsBackgroundShellUnconfined: a background shell the person's own
// rule allows runs as before, unconfined and saying nothing of confinement.
func TestPersonsBackgroundShellUnconfined(t *testing.T) {
	t.Parallel()
	a, out := unvouchedScene(t)
	mustWrite(t, filepath.Join(a.home, "config.toml"), ruleFile("toml", []string{"Bash(cat:*)"}), 0o644)
	r := a.runForms("pbg", []attackForm{{Name: "cat", Args: bg("cat " + filepath.Join(out, "m.txt"))},
		{Name: "wait", Args: timed("cat ff", 1500)}, {Name: "read", Tool: "BashOutput", Args: bashOutput("bash_1")}}, "--permission-mode", "default")
	start, read := r.Results[0], r.Results[2]
	if start.Decision != "allow" || start.Rule == "" || strings.Contains(start.Output, confinedMark) {
		t.Errorf("the person's rule no longer starts a background shell unconfined\n  %s", start.describe())
	}
	if !strings.Contains(read.Output, unvouchedSecret) {
		t.Errorf("the person's background cat did not read the file it names\n  %s", read.describe())
	}
}

// TestAttackUnvouchedBackgroundWriter: under acceptEdits, with no
// repository rule, a background shell re-aims a path (a committed relative
// link moved to where it leads outside) after a foreground read-only call's
// decision saw the plain directory: the background shell holds the FIFO ff
// open while it moves the link, so the foreground `cat ff y/m.txt` opens
// y/m.txt only after the move. Such a shell taints the workspace, so the
// read runs confined.
func TestAttackUnvouchedBackgroundWriter(t *testing.T) {
	t.Parallel()
	a, _ := unvouchedScene(t)
	r := a.runForms("ubw", []attackForm{
		{Name: "mover", Args: bg("{ echo go; rm -rf y; mv a/b/c/d/e/x y; } > ff")},
		{Name: "read", Args: timed("cat ff y/m.txt", 10000), Leak: unvouchedSecret},
	}, "--permission-mode", "acceptEdits")
	mover, read := r.Results[0], r.Results[1]
	if mover.Decision != "allow" || mover.Rule != "" || !mover.Completed || mover.IsError {
		t.Fatalf("HARNESS: the background mover was not auto-allowed and started\n  %s", mover.describe())
	}
	if read.Decision != "allow" || read.Rule != "" || !read.Completed {
		t.Fatalf("HARNESS: the read was not auto-allowed and run\n  %s", read.describe())
	}
	read.checkEffects(t)
	if !strings.Contains(read.Output, confinedMark) {
		t.Errorf("the read after an unvouched background writer started does not say its reads are confined\n  %s", read.describe())
	}
	a.checkNoLeak(t, unvouchedSecret)
}
