package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hostileRepo makes a git repository in a temp dir whose .git/config (and
// hooks) set every helper GitSafeEnv disables to a script that writes a file
// named PROOF-<helper> in the directory returned second, and leaves a change in
// the work tree so that status, diff and log have something to do.
func hostileRepo(t *testing.T) (repo, proofs string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo, proofs = t.TempDir(), t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b",
			"GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	if err := os.WriteFile(filepath.Join(repo, "f"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "f")
	git("commit", "-qm", "one")
	script := func(name string) string {
		p := filepath.Join(proofs, name+".sh")
		body := "#!/bin/sh\ntouch " + filepath.Join(proofs, "PROOF-"+name) + "\ncat >/dev/null 2>&1 </dev/null\n"
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	git("config", "core.fsmonitor", script("fsmonitor"))
	git("config", "core.pager", script("pager"))
	git("config", "pager.log", script("pagerlog"))
	git("config", "credential.helper", script("credential"))
	git("config", "log.showSignature", "true")
	git("config", "gpg.program", script("gpg"))
	hooks := filepath.Join(repo, "hooks-elsewhere")
	if err := os.Mkdir(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"pre-commit", "post-commit", "post-index-change", "reference-transaction"} {
		if err := os.Symlink(script("hook-"+h), filepath.Join(hooks, h)); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(script("githook-"+h), filepath.Join(repo, ".git", "hooks", h)); err != nil {
			t.Fatal(err)
		}
	}
	git("config", "core.hooksPath", hooks)
	if err := os.WriteFile(filepath.Join(repo, "f"), []byte("b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return repo, proofs
}

// noProof fails for every PROOF-* file in dir.
func noProof(t *testing.T, dir, what string) {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "PROOF-*"))
	for _, p := range m {
		t.Errorf("%s ran a repository-configured helper: %s", what, filepath.Base(p))
		_ = os.Remove(p)
	}
}

// gitCommands are the commands tried against the hostile repository.
var gitCommands = []string{
	"git status", "git status --porcelain", "git diff", "git diff HEAD", "git log -p -n1", "git log",
	"git show", "git add -A && git commit -qm two", "git -c core.pager=less log", "git blame f",
	"git stash list", "git branch -v",
}

// TestGitSafeEnv runs git commands in a repository configured to run helpers,
// with CommandEnv (which includes GitSafeEnv), through Run.
func TestGitSafeEnv(t *testing.T) {
	repo, proofs := hostileRepo(t)
	// Check the attack works at all: plain git status runs the fsmonitor.
	cmd := exec.Command("git", "status")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null")
	_ = cmd.Run()
	if _, err := os.Stat(filepath.Join(proofs, "PROOF-fsmonitor")); err != nil {
		t.Fatalf("the hostile repo does not work (plain git status ran no fsmonitor): %v", err)
	}
	m, _ := filepath.Glob(filepath.Join(proofs, "PROOF-*"))
	for _, p := range m {
		_ = os.Remove(p)
	}
	for _, c := range gitCommands {
		if strings.Contains(c, "core.pager=less") {
			continue // an explicit -c wins; in the sandbox that is the command's own business
		}
		res, err := Run(context.Background(), Command{Path: "bash", Args: []string{"-c", c}, Dir: repo,
			Env: []string{"GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b",
				"GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b"}, Timeout: 20 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if res.ExitCode != 0 {
			t.Errorf("%s: exit %d: %s", c, res.ExitCode, res.Output)
		}
		noProof(t, proofs, c)
	}
	// The same through the sandbox (whose env is CommandEnv too).
	ws, err := NewWorkspace(repo)
	if err != nil {
		t.Fatal(err)
	}
	e := &Executor{Policy: DefaultPolicy(), Workspace: ws}
	for _, c := range []string{"git status", "git diff", "git log -n1", "git show --stat"} {
		res, err := e.Run(context.Background(), Command{Path: "bash", Args: []string{"-c", c}, Dir: repo,
			Env: []string{"GIT_CONFIG_GLOBAL=/dev/null"}, Timeout: 20 * time.Second})
		if err != nil || res.ExitCode != 0 {
			t.Errorf("sandboxed %s: %v exit %d %s", c, err, res.ExitCode, res.Output)
		}
		noProof(t, proofs, "sandboxed "+c)
	}
}

// TestGitSafeArgs runs pincer-style git commands with GitSafeArgs and the
// whole of pincer's environment (not CommandEnv).
func TestGitSafeArgs(t *testing.T) {
	repo, proofs := hostileRepo(t)
	for _, sub := range [][]string{{"status", "--porcelain"}, {"status"}, {"log", "-n1"},
		append([]string{"diff"}, GitSafeDiffArgs()...), append([]string{"show"}, GitSafeDiffArgs()...),
		{"rev-parse", "--abbrev-ref", "HEAD"}} {
		cmd := exec.Command("git", append(GitSafeArgs(), sub...)...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("git %v: %v\n%s", sub, err, out)
		}
		noProof(t, proofs, strings.Join(sub, " "))
	}
}
