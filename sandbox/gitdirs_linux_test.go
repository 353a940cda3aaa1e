package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitEnv is a git identity and no user or system configuration, for the
// person's git commands in these tests.
var gitEnv = []string{"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=a",
	"GIT_COMMITTER_EMAIL=a@b", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}

// personGit runs git as the person would, outside the sandbox, in dir.
func personGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), gitEnv...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v %s", args, dir, err, out)
	}
	return string(out)
}

// otherGitDirLayouts lays out, in root, the three layouts of red team F1 with
// real git: A (proj/.git a symlink to .repo/projects/proj.git, as Android's
// repo tool), B (a bare repository remote.git that proj pushes to), C (the
// root's .git a file naming gd, `git init --separate-git-dir`), and an
// executable evil/run that touches PROOF where it runs, which the model could
// have written anywhere in the workspace. It returns each layout's git dir
// (relative).
func otherGitDirLayouts(t *testing.T, root string) map[string]string {
	t.Helper()
	personGit(t, root, "init", "-q", "--separate-git-dir="+filepath.Join(root, "gd"), root)
	personGit(t, root, "init", "-q", "--bare", filepath.Join(root, ".repo", "projects", "proj.git"))
	personGit(t, root, "--git-dir="+filepath.Join(root, ".repo", "projects", "proj.git"), "config", "core.bare", "false")
	if err := os.MkdirAll(filepath.Join(root, "proj"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../.repo/projects/proj.git", filepath.Join(root, "proj", ".git")); err != nil {
		t.Fatal(err)
	}
	personGit(t, filepath.Join(root, "proj"), "commit", "-q", "--allow-empty", "-m", "x")
	personGit(t, root, "init", "-q", "--bare", filepath.Join(root, "remote.git"))
	personGit(t, filepath.Join(root, "proj"), "remote", "add", "origin", "../remote.git")
	if err := os.MkdirAll(filepath.Join(root, "evil"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"run", "pre-commit", "pre-receive", "post-checkout"} {
		if err := os.WriteFile(filepath.Join(root, "evil", n), []byte("#!/bin/sh\ntouch \""+root+"/PROOF\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return map[string]string{"A": ".repo/projects/proj.git", "B": "remote.git", "C": "gd"}
}

// personCommands run the person's ordinary git commands after the session,
// outside the sandbox, in each layout, and report whether PROOF appeared.
func personCommands(t *testing.T, root string) bool {
	t.Helper()
	personGit(t, root, "status", "--short")
	personGit(t, root, "commit", "-q", "--allow-empty", "-m", "p")
	personGit(t, filepath.Join(root, "proj"), "status", "--short")
	personGit(t, filepath.Join(root, "proj"), "commit", "-q", "--allow-empty", "-m", "p")
	personGit(t, filepath.Join(root, "proj"), "push", "-q", "origin", "HEAD:refs/heads/p")
	_, err := os.Lstat(filepath.Join(root, "PROOF"))
	return err == nil
}

// otherGitDirAttacks are Bash forms against git dir G (relative): each must
// fail under the sandbox and leave G's configuration as it was.
func otherGitDirAttacks(g string) []string {
	return []string{
		`printf '[core]\n\tfsmonitor = "$PWD/evil/run"\n' >> ` + g + `/config`,
		`printf '[core]\n\thooksPath = '"$PWD"'/evil\n' >> ` + g + `/config`,
		`git config -f ` + g + `/config core.hooksPath "$PWD/evil"`,
		`git --git-dir=` + g + ` config core.fsmonitor "$PWD/evil/run"`,
		`printf '[core]\n\thooksPath = '"$PWD"'/evil\n' > /tmp/cfg.$$ && cp /tmp/cfg.$$ ` + g + `/config`,
		`printf '[core]\n\thooksPath = '"$PWD"'/evil\n' > cfg && ln -sf "$PWD/cfg" ` + g + `/config`,
		`sed -i 's/\[core\]/[core]\n\thooksPath = evil/' ` + g + `/config`,
		`cp evil/pre-commit ` + g + `/hooks/pre-commit`,
		`cp evil/pre-receive ` + g + `/hooks/pre-receive`,
		`ln -s "$PWD/evil/post-checkout" ` + g + `/hooks/post-checkout`,
		`mv ` + g + `/hooks ` + g + `/h2 && mkdir ` + g + `/hooks && cp evil/pre-commit ` + g + `/hooks/`,
		`mv ` + g + ` ` + g + `.old && cp -r ` + g + `.old ` + g + ` && git config -f ` + g + `/config core.hooksPath "$PWD/evil"`,
		`echo '* filter=x' >> ` + g + `/info/attributes`,
		`cd ` + g + ` && git config core.hooksPath "$OLDPWD/evil"`,
	}
}

// TestSandboxOtherGitDirsReadOnly: in layouts A, B and C (real git), every
// Bash form above fails in the sandbox, the git dirs' config and hooks stay
// byte for byte, and the person's git commands afterwards (status, commit,
// push, outside the sandbox) run nothing of the model's; objects and refs
// stay writable (a commit in proj and a push to remote.git from the sandbox
// work; C's gd is a linked worktree's main repository, sealed whole by
// gitSeals already), and a bare repository a command creates is its own
// until the command ends, keeping then only the config keys git init writes.
func TestSandboxOtherGitDirsReadOnly(t *testing.T) {
	pol := DefaultPolicy()
	pol.QuarantineDir = t.TempDir()
	e, root := newSandbox(t, pol)
	dirs := otherGitDirLayouts(t, root)
	before := listing(t, root)
	keep := func() {
		t.Helper()
		after := listing(t, root)
		for _, g := range dirs {
			for k, v := range before {
				if (strings.HasPrefix(k, g+"/config") || strings.HasPrefix(k, g+"/hooks") || strings.HasPrefix(k, g+"/info")) && after[k] != v {
					t.Errorf("%s changed: %q -> %q", k, v, after[k])
				}
			}
			for k := range after {
				if _, ok := before[k]; !ok && (strings.HasPrefix(k, g+"/hooks/") || strings.HasPrefix(k, g+"/info/")) {
					t.Errorf("%s created", k)
				}
			}
		}
	}
	for layout, g := range dirs {
		for _, attack := range otherGitDirAttacks(g) {
			res := sh(t, e, "export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null; "+attack)
			if res.ExitCode == 0 && res.Notice == "" {
				t.Errorf("layout %s: %q succeeded: %q", layout, attack, res.Output)
			}
			keep()
			// Put back what an attack renamed beside (a failed mv leaves nothing).
			_ = os.RemoveAll(filepath.Join(root, g+".old"))
		}
	}
	if personCommands(t, root) {
		t.Fatal("the person's git command ran the model's program")
	}
	env := "export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null; "
	if res := sh(t, e, env+"cd proj && git commit -q --allow-empty -m s && git push -q origin HEAD:refs/heads/s"); res.ExitCode != 0 {
		t.Errorf("commit and push in the sandbox: exit %d %q %q", res.ExitCode, res.Output, res.Notice)
	}
	if res := sh(t, e, env+"git init -q --bare mine.git && git -C mine.git config pincer.test x && git -C mine.git config --get pincer.test"); res.ExitCode != 0 || !strings.Contains(res.Output, "x") {
		t.Errorf("a bare repository the command made: exit %d %q %q", res.ExitCode, res.Output, res.Notice)
	}
	// A config key git init does not write is quarantined when the command
	// ends (red team r17 F2), and a later command cannot write it either.
	if _, err := os.Lstat(filepath.Join(root, "mine.git", "config")); err == nil {
		t.Error("mine.git's config with a key of the command's kept")
	}
	if res := sh(t, e, env+"git -C mine.git config pincer.test y"); res.ExitCode == 0 && res.Notice == "" {
		t.Errorf("mine.git's config written by a later command: %q", res.Output)
	}
}

// TestGitDirsIn: the discovery finds layouts A, B and C, a nested
// repository's .git, a worktree's git dir a .git file names, and nothing in
// root's own .git; a directory missing objects/ or refs/ is no git dir.
func TestGitDirsIn(t *testing.T) {
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	otherGitDirLayouts(t, root)
	personGit(t, root, "init", "-q", filepath.Join(root, "sub", "nested"))
	if err := os.MkdirAll(filepath.Join(root, "fake", "objects"), 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(root, "fake", "HEAD"), []byte("x"), 0o644)
	got := GitDirsIn(root)
	for _, want := range []string{".repo/projects/proj.git", "remote.git", "gd", "sub/nested/.git"} {
		found := false
		for _, g := range got {
			found = found || g == filepath.Join(root, want)
		}
		if !found {
			t.Errorf("GitDirsIn misses %s: %v", want, got)
		}
	}
	for _, g := range got {
		if strings.Contains(g, "fake") || strings.HasPrefix(g, filepath.Join(root, ".git")+"/") {
			t.Errorf("GitDirsIn found %s", g)
		}
	}
}
