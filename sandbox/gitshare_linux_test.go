package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitFixture runs the test's own git in dir.
func gitFixture(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "core.hooksPath=/dev/null"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// worktreeSandbox is a session's sandbox in a worktree pincer made: a main
// checkout and PINCER_HOME outside every writable tree (as ~/src and
// ~/.local/share are: not under /tmp, which commands may write), two
// worktrees under DATA/worktrees/p, the Workspace rooted at the first with
// its git shared as core/app shares it.
type worktreeSandbox struct {
	e                        *Executor
	repo, home, wt, other    string
	gitDir, common, otherRef string
}

func newWorktreeSandbox(t *testing.T, noMountNS bool) worktreeSandbox {
	t.Helper()
	wd, _ := os.Getwd()
	return newWorktreeSandboxIn(t, noMountNS, wd)
}

// newWorktreeSandboxIn is newWorktreeSandbox with the fixture (main checkout,
// PINCER_HOME) in parent — os.TempDir() puts it in a writable tree.
func newWorktreeSandboxIn(t *testing.T, noMountNS bool, parent string) worktreeSandbox {
	t.Helper()
	base, err := os.MkdirTemp(parent, ".gitshare-test-")
	if err != nil {
		t.Skipf("no directory outside the temp dir for the fixture: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	base, _ = filepath.EvalSymlinks(base)
	s := worktreeSandbox{repo: filepath.Join(base, "repo"), home: filepath.Join(base, "pincer-home")}
	if err := os.MkdirAll(s.repo, 0o755); err != nil {
		t.Fatal(err)
	}
	gitFixture(t, s.repo, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(s.repo, "a.txt"), []byte("main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitFixture(t, s.repo, "add", "-A")
	gitFixture(t, s.repo, "commit", "-qm", "first")
	proj := filepath.Join(s.home, "data", "worktrees", "p")
	s.wt, s.other = filepath.Join(proj, "w"), filepath.Join(proj, "other")
	gitFixture(t, s.repo, "worktree", "add", "-q", "-b", "pincer/w", s.wt)
	gitFixture(t, s.repo, "worktree", "add", "-q", "-b", "pincer/other", s.other)
	s.common = filepath.Join(s.repo, ".git")
	s.gitDir = filepath.Join(s.common, "worktrees", "w")
	s.otherRef = gitFixture(t, s.repo, "rev-parse", "pincer/other")
	if err := os.WriteFile(filepath.Join(s.gitDir, "config.worktree"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PINCER_HOME", s.home)
	ws, err := NewWorkspace(s.wt)
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.AddDir(s.wt); err != nil {
		t.Fatal(err)
	}
	if err := ws.ShareGit(GitShare{CommonDir: s.common, GitDir: s.gitDir}); err != nil {
		t.Fatal(err)
	}
	s.e = &Executor{Policy: DefaultPolicy(), Workspace: ws}
	if noMountNS {
		s.e.probe = withoutMountNS
	}
	return s
}

// TestSandboxWorktreeCommits: in a worktree session git reads work under the
// sandbox (status, diff, log, show), git add stops at the read-only objects
// and git commit at them or the branch's ref (GitShare), moving no branch and
// adding no object; the work lands on the worktree's branch only when
// pincer's own git (unsandboxed, as worktree.Commit) commits it.
func TestSandboxWorktreeCommits(t *testing.T) {
	wd, _ := os.Getwd()
	for _, parent := range []string{wd, os.TempDir()} {
		t.Run(filepath.Base(parent), func(t *testing.T) { testWorktreeCommits(t, parent) })
	}
}

func testWorktreeCommits(t *testing.T, parent string) {
	s := newWorktreeSandboxIn(t, false, parent)
	mainHead := gitFixture(t, s.repo, "rev-parse", "main")
	branchHead := gitFixture(t, s.repo, "rev-parse", "pincer/w")
	objects := listTree(t, filepath.Join(s.common, "objects"))
	res := sh(t, s.e, "echo more >> a.txt && echo new > f.txt && git status --porcelain && git diff --stat && git log -1 --format=%s && git show HEAD:a.txt")
	if res.ExitCode != 0 || !strings.Contains(res.Output, " M a.txt") || !strings.Contains(res.Output, "?? f.txt") || !strings.Contains(res.Output, "first") {
		t.Fatalf("git reads in the worktree failed (%d): %s", res.ExitCode, res.Output)
	}
	for _, c := range []string{"git add f.txt 2>&1", "git -c user.name=t -c user.email=t@t commit -qam 'in the worktree' 2>&1", "git -c user.name=t -c user.email=t@t commit -q --allow-empty -m empty 2>&1"} {
		if res := sh(t, s.e, c); res.ExitCode == 0 {
			t.Errorf("%q in the sandbox wrote the main repository: %s", c, res.Output)
		}
	}
	if got := gitFixture(t, s.repo, "rev-parse", "pincer/w"); got != branchHead {
		t.Errorf("a sandboxed commit moved pincer/w to %s", got)
	}
	if got := listTree(t, filepath.Join(s.common, "objects")); got != objects {
		t.Errorf("a sandboxed git added objects:\n%s\nwere:\n%s", got, objects)
	}
	gitFixture(t, s.wt, "add", "-A")
	gitFixture(t, s.wt, "commit", "-qm", "by pincer")
	if got := gitFixture(t, s.repo, "show", "pincer/w:f.txt"); got != "new" {
		t.Errorf("pincer/w:f.txt = %q after pincer's commit", got)
	}
	if gitFixture(t, s.repo, "rev-parse", "main") != mainHead {
		t.Error("main moved")
	}
	if _, err := os.Lstat(filepath.Join(s.repo, "f.txt")); err == nil {
		t.Error("the main checkout got f.txt")
	}
}

// TestAttackWorktreeSession: from a worktree session no command writes the
// main checkout's files, the main repository's hooks, config, HEAD, index or
// other branches, another worktree, the worktree's git redirects or pincer's
// data directory — directly, relative (..), through symlinks, or through git
// itself; with and without a mount namespace.
//
// The fixture lies once outside every writable tree and once in the temp dir
// (a repository under /tmp, which commands may write: the main repository is
// sealed read-only all the same, gitseal.go).
func TestAttackWorktreeSession(t *testing.T) {
	wd, _ := os.Getwd()
	for _, c := range []struct {
		name      string
		noMountNS bool
		parent    string
	}{
		{"mountns", false, wd}, {"landlock-only", true, wd},
		{"tmp/mountns", false, os.TempDir()}, {"tmp/landlock-only", true, os.TempDir()},
	} {
		noMountNS := c.noMountNS
		t.Run(c.name, func(t *testing.T) {
			s := newWorktreeSandboxIn(t, noMountNS, c.parent)
			base := filepath.Dir(s.repo)
			relRepo, _ := filepath.Rel(s.wt, s.repo)
			mainHead := gitFixture(t, s.repo, "rev-parse", "main")
			watch := map[string]string{} // path -> content before
			for _, p := range []string{
				filepath.Join(s.repo, "a.txt"), filepath.Join(s.common, "config"), filepath.Join(s.common, "HEAD"),
				filepath.Join(s.common, "index"), filepath.Join(s.other, "a.txt"), filepath.Join(s.gitDir, "commondir"),
				filepath.Join(s.gitDir, "gitdir"), filepath.Join(s.gitDir, "config.worktree"), filepath.Join(s.wt, ".git"),
				filepath.Join(s.common, "worktrees", "other", "HEAD"),
			} {
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				watch[p] = string(b)
			}
			created := []string{
				filepath.Join(s.common, "hooks", "post-commit"), filepath.Join(s.common, "hooks", "pre-commit"),
				filepath.Join(s.common, "info", "attributes"), filepath.Join(s.home, "data", "PROOF"),
				filepath.Join(s.home, "data", "mcp-approvals.json"), filepath.Join(s.other, "PROOF"),
				filepath.Join(s.repo, "PROOF"), filepath.Join(s.home, "data", "worktrees", "p", "PROOF"),
				filepath.Join(s.common, "worktrees", "other", "PROOF"),
				filepath.Join(s.common, "worktrees", "evil"), filepath.Join(s.common, "hooks", "post-checkout"),
				filepath.Join(base, "repo2"),
			}
			attacks := []string{
				"echo PWNED > " + filepath.Join(s.repo, "a.txt"),
				"echo PWNED > ../../../../../repo/a.txt",
				"echo PWNED > " + filepath.Join(s.repo, "PROOF"),
				"printf '#!/bin/sh\\ntouch PROOF\\n' > " + filepath.Join(s.common, "hooks", "post-commit"),
				"mkdir -p " + filepath.Join(s.common, "hooks") + " && echo x > " + filepath.Join(s.common, "hooks", "pre-commit"),
				"echo x > " + filepath.Join(s.common, "info", "attributes"),
				"echo '[core]\n\thooksPath = /tmp' >> " + filepath.Join(s.common, "config"),
				"git config core.hooksPath /tmp",
				"git config --worktree core.hooksPath /tmp",
				"echo PWNED > " + filepath.Join(s.other, "a.txt"),
				"echo PWNED > ../other/a.txt",
				"cd ../other && echo PWNED > a.txt",
				"echo x > ../other/PROOF",
				"echo x > ../PROOF",
				"echo x > " + filepath.Join(s.home, "data", "PROOF"),
				"echo '{}' > " + filepath.Join(s.home, "data", "mcp-approvals.json"),
				"ln -s " + filepath.Join(s.common, "hooks") + " hk; echo x > hk/post-commit",
				"ln -s " + s.other + " ot; echo PWNED > ot/a.txt",
				"ln -s " + s.repo + " rp; echo PWNED > rp/a.txt",
				"git update-ref refs/heads/main HEAD~0 2>&1; git branch -f main HEAD 2>&1",
				"git update-ref refs/heads/pincer/other $(git hash-object -w --stdin </dev/null) 2>&1",
				"git symbolic-ref HEAD refs/heads/main && echo x > z && git add z && git -c user.name=t -c user.email=t@t commit -qm evil",
				"echo 'gitdir: /tmp' > .git",
				"echo /tmp > " + filepath.Join(s.gitDir, "commondir"),
				"echo /tmp/x > " + filepath.Join(s.gitDir, "gitdir"),
				"echo '[core]' > " + filepath.Join(s.gitDir, "config.worktree"),
				"echo PWNED > " + filepath.Join(s.common, "worktrees", "other", "HEAD"),
				"echo x > " + filepath.Join(s.common, "worktrees", "other", "PROOF"),
				"git --git-dir=" + s.common + " --work-tree=" + s.repo + " reset -q --hard HEAD~0 2>&1; echo PWNED > " + filepath.Join(s.repo, "a.txt"),
				"mv " + filepath.Join(s.common, "hooks") + " " + filepath.Join(s.common, "hooks2") + " && mkdir " + filepath.Join(s.common, "hooks"),
				"python3 -c 'open(\"" + filepath.Join(s.repo, "a.txt") + "\", \"w\").write(\"PWNED\")'",
				// F1 (red team): a script the model wrote, run by Bash.
				"printf 'mkdir -p " + base + "/hk; printf \"#!/bin/sh\\ntouch PROOF\\n\" > " + base + "/hk/post-checkout; git config core.hooksPath " + base + "/hk\\n' > x.sh; sh x.sh; rm -f x.sh",
				"printf 'echo ref: refs/heads/pincer/w > " + filepath.Join(relRepo, ".git", "HEAD") + "\\n' > x.sh; sh x.sh; rm -f x.sh",
				"echo 'ref: refs/heads/pincer/w' > " + filepath.Join(s.common, "HEAD"),
				"echo '[core]' >> " + filepath.Join(relRepo, ".git", "config"),
				"echo x > " + filepath.Join(relRepo, ".git", "hooks", "post-checkout"),
				"echo x > " + filepath.Join(s.common, "index"),
				"cat /dev/null > " + filepath.Join(relRepo, ".git", "index"),
				"mkdir -p " + filepath.Join(s.common, "worktrees", "evil"),
				"ln -s " + filepath.Join(s.common, "config") + " cf; echo '[core]' >> cf",
				"ln -s " + s.common + " gd; echo x > gd/hooks/post-checkout; echo '[x]' >> gd/config",
				"mv " + s.repo + " " + filepath.Join(base, "repo2") + " && mkdir -p " + filepath.Join(s.repo, ".git"),
			}
			for _, a := range attacks {
				res := sh(t, s.e, a)
				if testing.Verbose() {
					t.Log(a, "->", res.Output)
				}
				for p, before := range watch {
					if b, _ := os.ReadFile(p); string(b) != before {
						t.Errorf("%q changed %s: %q", a, p, b)
						_ = os.WriteFile(p, []byte(before), 0o644)
					}
				}
				for _, p := range created {
					if _, err := os.Lstat(p); err == nil {
						t.Errorf("%q created %s", a, p)
						_ = os.RemoveAll(p)
					}
				}
				if gitFixture(t, s.repo, "rev-parse", "main") != mainHead {
					t.Fatalf("%q moved main", a)
				}
				if gitFixture(t, s.repo, "rev-parse", "pincer/other") != s.otherRef {
					t.Fatalf("%q moved pincer/other", a)
				}
				// Put the worktree's HEAD back for the next attack.
				_ = os.WriteFile(filepath.Join(s.gitDir, "HEAD"), []byte("ref: refs/heads/pincer/w\n"), 0o644)
			}
			if _, err := os.Lstat(filepath.Join(s.common, "hooks2")); err == nil {
				t.Error("the main repository's hooks were moved away")
			}
		})
	}
}

// TestAttackPersonLinkedWorktree: a session rooted at a linked worktree the
// person made (`git worktree add`, no ShareGit) with the main repository
// under the temp dir writes none of the main repository: its config, hooks,
// HEAD, the other worktrees' git dirs, the main checkout's files.
//
// Also with the directory holding both added to the workspace (--add-dir):
// its own protected paths are not the repository's.
func TestAttackPersonLinkedWorktree(t *testing.T) {
	for _, c := range []struct {
		name              string
		noMountNS, addDir bool
	}{{"mountns", false, false}, {"landlock-only", true, false}, {"add-dir/mountns", false, true}, {"add-dir/landlock-only", true, true}} {
		noMountNS := c.noMountNS
		t.Run(c.name, func(t *testing.T) {
			base, err := os.MkdirTemp(os.TempDir(), ".gitseal-test-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(base) })
			base, _ = filepath.EvalSymlinks(base)
			repo, wt := filepath.Join(base, "repo"), filepath.Join(base, "wt")
			if err := os.MkdirAll(repo, 0o755); err != nil {
				t.Fatal(err)
			}
			gitFixture(t, repo, "init", "-q", "-b", "main")
			if err := os.WriteFile(filepath.Join(repo, "a.txt"), []byte("main\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			gitFixture(t, repo, "add", "-A")
			gitFixture(t, repo, "commit", "-qm", "first")
			gitFixture(t, repo, "worktree", "add", "-q", "-b", "feature", wt)
			ws, err := NewWorkspace(wt)
			if err != nil {
				t.Fatal(err)
			}
			if c.addDir {
				if err := ws.AddDir(base); err != nil {
					t.Fatal(err)
				}
			}
			e := &Executor{Policy: DefaultPolicy(), Workspace: ws}
			if noMountNS {
				e.probe = withoutMountNS
			}
			common := filepath.Join(repo, ".git")
			watch := map[string]string{}
			for _, p := range []string{filepath.Join(repo, "a.txt"), filepath.Join(common, "config"), filepath.Join(common, "HEAD"),
				filepath.Join(common, "worktrees", "wt", "HEAD"), filepath.Join(common, "worktrees", "wt", "commondir")} {
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				watch[p] = string(b)
			}
			for _, a := range []string{
				"git config core.hooksPath " + base,
				"printf 'git config core.hooksPath " + base + "\\n' > x.sh; sh x.sh",
				"echo '[core]' >> ../repo/.git/config",
				"echo x > ../repo/.git/hooks/post-checkout",
				"echo 'ref: refs/heads/feature' > ../repo/.git/HEAD",
				"echo PWNED > ../repo/a.txt",
				"echo PWNED > " + filepath.Join(common, "worktrees", "wt", "HEAD"),
				"echo /tmp > " + filepath.Join(common, "worktrees", "wt", "commondir"),
				"ln -s ../repo rp; echo PWNED > rp/a.txt",
			} {
				res := sh(t, e, a)
				for p, before := range watch {
					if b, _ := os.ReadFile(p); string(b) != before {
						t.Errorf("%q changed %s: %q (%s)", a, p, b, res.Output)
						_ = os.WriteFile(p, []byte(before), 0o644)
					}
				}
				if _, err := os.Lstat(filepath.Join(common, "hooks", "post-checkout")); err == nil {
					t.Errorf("%q created a hook", a)
					_ = os.Remove(filepath.Join(common, "hooks", "post-checkout"))
				}
			}
			if res := sh(t, e, "echo ok >> a.txt && cat a.txt"); res.ExitCode != 0 || !strings.Contains(res.Output, "ok") {
				t.Errorf("the worktree itself is not writable: %d %s", res.ExitCode, res.Output)
			}
		})
	}
}
