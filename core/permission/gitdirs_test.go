package permission

import (
	"os"
	"path/filepath"
	"testing"
)

// otherGitDirRoot lays out, with the literal facts git looks at (HEAD,
// objects/, refs/), a bare repository remote.git, a separate git dir gd named
// by the root's .git file, and .repo/projects/p.git named by proj/.git, a
// symlink (red team F1's layouts B, C, A); plus notgit/ with a HEAD only.
func otherGitDirRoot(t *testing.T) string {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for _, g := range []string{"remote.git", "gd", ".repo/projects/p.git"} {
		for _, d := range []string{"objects", "refs/heads", "hooks", "info"} {
			if err := os.MkdirAll(filepath.Join(root, g, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range []string{"HEAD", "config"} {
			if err := os.WriteFile(filepath.Join(root, g, f), []byte("x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	_ = os.WriteFile(filepath.Join(root, ".git"), []byte("gitdir: gd\n"), 0o644)
	_ = os.MkdirAll(filepath.Join(root, "proj"), 0o755)
	_ = os.MkdirAll(filepath.Join(root, "notgit"), 0o755)
	_ = os.WriteFile(filepath.Join(root, "notgit", "HEAD"), []byte("x\n"), 0o644)
	if err := os.Symlink("../.repo/projects/p.git", filepath.Join(root, "proj", ".git")); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestAttackOtherGitDirs: writing the config, hooks or info of a git dir not
// named .git — by Write/Edit/MultiEdit/NotebookEdit/apply_patch paths or by
// Bash (redirections, cp, ln, tee, git config -f, sed -i, cd first) — is
// never allowed in bypassPermissions, acceptEdits or default, with or without
// an allow rule, as for .git.
func TestAttackOtherGitDirs(t *testing.T) {
	root := otherGitDirRoot(t)
	var as []attack
	for _, g := range []string{"remote.git", "gd", ".repo/projects/p.git", "proj/.git", "./remote.git/../gd", "REMOTE.GIT/../remote.git"} {
		for _, rel := range []string{"config", "config.worktree", "commondir", "hooks/pre-commit", "hooks/pre-receive", "info/attributes", "", "hooks", "modules/x/config", "worktrees/w/config.worktree"} {
			p := filepath.Join(root, g, rel)
			for _, tool := range []string{"Write", "Edit", "MultiEdit", "NotebookEdit", "apply_patch"} {
				w := Input{Tool: tool, Kind: KindEdit, Paths: []string{p}, Workspace: root, Cwd: root}
				for _, m := range []Mode{ModeBypass, ModeAcceptEdits, ModeDefault} {
					as = append(as, attack{m, RuleSet{}, w})
				}
				as = append(as, attack{ModeAcceptEdits, RuleSet{}.Add(Allow, Rule{Tool: "Edit"}), w})
			}
		}
		for _, cmd := range []string{
			"printf '[core]\\n\\tfsmonitor = x\\n' >> " + g + "/config",
			"echo x > " + g + "/hooks/pre-commit",
			"cp evil " + g + "/config",
			"cp evil " + g + "/hooks/post-update",
			"ln -sf ../evil " + g + "/config",
			"tee -a " + g + "/config",
			"sed -i s/a/b/ " + g + "/config",
			"mv " + g + "/config x",
			"cd " + g + " && echo x >> config",
			"git config -f " + g + "/config core.hooksPath /tmp",
			"git --git-dir=" + g + " config core.hooksPath /tmp",
		} {
			b := Input{Tool: "Bash", Kind: KindExecute, Command: cmd, Workspace: root, Cwd: root, Home: "/home/u"}
			as = append(as, attack{ModeBypass, RuleSet{}, b}, attack{ModeAcceptEdits, RuleSet{}.Add(Allow, Rule{Tool: "Bash"}), b})
		}
	}
	countAllowed(t, "git dirs under other names", as)
}

// TestOtherGitDirsControl: objects and refs of those git dirs, ordinary files
// beside them, and a directory with only a HEAD stay writable without a
// question in acceptEdits (the protection is git's configuration, not every
// directory that looks a little like a repository).
func TestOtherGitDirsControl(t *testing.T) {
	root := otherGitDirRoot(t)
	for _, rel := range []string{"remote.git/objects/ab/cd", "remote.git/refs/heads/main", "gd/HEAD", "gd/index",
		"notgit/config", "notgit/hooks/x", "proj/main.go", "remote.gitx/config"} {
		in := Input{Tool: "Write", Kind: KindEdit, Paths: []string{filepath.Join(root, rel)}, Workspace: root, Cwd: root}
		if d := Evaluate(ModeAcceptEdits, RuleSet{}, in); d.Behavior != Allow {
			t.Errorf("%s: %s (%s)", rel, d.Behavior, d.Reason)
		}
	}
}
