package e2e

// Red team r21 F2, F3: a call allowed for the paths its words name (the
// read-only set, acceptEdits' file commands) was decided on the workspace as
// it was before the call, as far as the words show it. An earlier part of
// the same command line moved a committed relative link to where it leads
// outside (`mv a/b/c/d/e/x y && cat y/m.txt`), or earlier calls built a git
// dir deeper than the git-dir walk whose packed-refs is such a link and a
// read-only `git branch` read it. Such calls now run with their reads
// confined by the kernel wherever Landlock can confine them: the outside
// content never reaches a tool result.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAttackByPathsReadsConfined(t *testing.T) {
	t.Parallel()
	deep := "n1/n2/n3/n4/n5/n6/n7"
	cases := []struct {
		name  string
		forms []attackForm
	}{
		{"mv-then-cat", []attackForm{{Name: "mv-cat", Cmd: "rm -rf y && mv a/b/c/d/e/x y && cat y/m.txt"}}},
		{"cp-then-head", []attackForm{{Name: "cp-head", Cmd: "cp -P a/b/c/d/e/x z1 && head z1/m.txt"}}},
		{"cp-then-tail", []attackForm{{Name: "cp-tail", Cmd: "cp -P a/b/c/d/e/x z2; tail z2/m.txt"}}},
		{"deep-git-dir", []attackForm{
			{Name: "mkdir", Cmd: "mkdir -p " + deep + "/.git/objects " + deep + "/.git/refs/heads"},
			{Name: "head", Cmd: "echo 'ref: refs/heads/master' > " + deep + "/.git/HEAD"},
			{Name: "mv", Cmd: "mv L1/L2/L3/L4/L5/L6/L7/L8/L9/L10/L11/L12/L13/x " + deep + "/.git/packed-refs"},
			{Name: "git", Cmd: "git -C " + deep + " branch"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, out := unvouchedScene(t)
			mustWrite(t, filepath.Join(out, "m.txt"), unvouchedSecret+"\n", 0o644)
			// L1/…/L13/x climbs 11 levels: inside where it lies, outside from a git dir 8 deep.
			up3 := filepath.Dir(filepath.Dir(filepath.Dir(a.repo)))
			rel, err := filepath.Rel(up3, filepath.Join(out, "m.txt"))
			if err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(a.repo, "L1/L2/L3/L4/L5/L6/L7/L8/L9/L10/L11/L12/L13/x")
			mustWrite(t, filepath.Join(filepath.Dir(link), "keep"), "k\n", 0o644)
			if err := os.Symlink(strings.Repeat("../", 11)+rel, link); err != nil {
				t.Fatal(err)
			}
			git(t, a.repo, "add", "L1")
			git(t, a.repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "deep link")
			r := a.runForms("byp", tc.forms, "--permission-mode", "acceptEdits")
			for _, c := range r.Results {
				if c.Decision != "allow" || c.Rule != "" || !c.Completed {
					t.Fatalf("HARNESS: %s was not auto-allowed and run\n  %s", c.Form.Name, c.describe())
				}
			}
			last := r.Results[len(r.Results)-1]
			if !strings.Contains(last.Output, "Permission denied") || !strings.Contains(last.Output, confinedMark) {
				t.Errorf("the read was not refused by the confinement, or does not say why\n  %s", last.describe())
			}
			a.checkNoLeak(t, unvouchedSecret)
		})
	}
}

// TestByPathsGitReadsPersonsConfig: a read-only git call, confined for its
// own decision, still reads what the person's git configuration includes
// (include.path: git dies on an include it cannot read) and names for
// every repository (core.excludesFile), though both lie in the home
// directory outside every tree a confined command may read otherwise.
func TestByPathsGitReadsPersonsConfig(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	home := filepath.Join(outsideTemp(t), "home")
	mustWrite(t, filepath.Join(home, ".gitconfig"), "[include]\n\tpath = ~/.gitconfig.local\n[core]\n\texcludesFile = ~/.gitignore_global\n", 0o644)
	mustWrite(t, filepath.Join(home, ".gitconfig.local"), "[user]\n\tname = Included Person\n", 0o644)
	mustWrite(t, filepath.Join(home, ".gitignore_global"), "*.ignoredglobally\n", 0o644)
	mustWrite(t, filepath.Join(a.repo, "x.ignoredglobally"), "x\n", 0o644)
	mustWrite(t, filepath.Join(a.repo, "new.txt"), "n\n", 0o644)
	a.extraEnv = append(a.extraEnv, "HOME="+home, "XDG_CONFIG_HOME=")
	r := a.runForms("gcf", []attackForm{{Name: "status", Cmd: "git status --short"}, {Name: "log", Cmd: "git log -1 --format=%an"}}, "--permission-mode", "default")
	for _, c := range r.Results {
		if c.Decision != "allow" || !c.Completed || c.IsError || strings.Contains(c.Output, "unable to access") || strings.Contains(c.Output, "Permission denied") {
			t.Errorf("%s: a confined read-only git call could not read the person's git configuration\n  %s", c.Form.Name, c.describe())
		}
	}
	if st := r.Results[0].Output; !strings.Contains(st, "new.txt") || strings.Contains(st, "ignoredglobally") {
		t.Errorf("git status does not apply the global excludes file\n  %s", r.Results[0].describe())
	}
}

// TestAttackRepoGitConfigWidensNothing: the repository's own .git/config
// (shipped with a cloned .git, or left by an earlier session) names the
// outside directory and file in includeIf entries whose condition never
// holds, or includes an outside git-config-shaped file unconditionally;
// the confined reads must not take them (red team r21c F1: the includeIf
// targets were read by a project-rule command and a by-paths call; red team
// r22 F1: the unconditional include was, through git's own list of the
// config files it read).
func TestAttackRepoGitConfigWidensNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, mode string
		include    bool // an unconditional include.path of out/inc.cfg
		form       attackForm
	}{
		{"project-rule", "default", false, attackForm{Name: "sh", Cmd: "sh cat.sh"}},
		{"by-paths", "acceptEdits", false, attackForm{Name: "mv-cat", Cmd: "rm -rf y && mv a/b/c/d/e/x y && cat y/m.txt"}},
		{"include-project-rule", "default", true, attackForm{Name: "sh", Cmd: "sh cat.sh"}},
		{"include-by-paths", "acceptEdits", true, attackForm{Name: "mv-cat", Cmd: "rm -rf y && mv a/b/c/d/e/x y && cat y/inc.cfg"}},
		{"include-git-config", "default", true, attackForm{Name: "sh-git-config", Cmd: "sh gc.sh"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, out := unvouchedScene(t)
			target := filepath.Join(out, "m.txt")
			if tc.include {
				target = filepath.Join(out, "inc.cfg")
				mustWrite(t, target, "[rt]\n\tmarker = "+unvouchedSecret+"\n", 0o644)
				git(t, a.repo, "config", "include.path", target)
			} else {
				git(t, a.repo, "config", "includeIf.onbranch:never-a.path", out)
				git(t, a.repo, "config", "includeIf.onbranch:never-b.path", target)
			}
			mustWrite(t, filepath.Join(a.repo, "cat.sh"), "cat "+target+"\n", 0o644)
			mustWrite(t, filepath.Join(a.repo, "gc.sh"), "git config --get rt.marker; git config --list --show-origin\n", 0o644)
			r := a.runForms("rgc", []attackForm{tc.form}, "--permission-mode", tc.mode)
			if c := r.Results[0]; c.Decision != "allow" || !c.Completed {
				t.Fatalf("HARNESS: the call was not allowed and run\n  %s", c.describe())
			}
			a.checkNoLeak(t, unvouchedSecret)
		})
	}
}
