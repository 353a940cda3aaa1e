package worktree

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/prompt"
)

func TestMergeAndRemove(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"a.txt": "one\n"})
	m := New(t.TempDir())
	wt, err := m.Create(ctx, repo, "w")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(wt.Path, "a.txt"), "one\nmore\n")
	write(t, filepath.Join(wt.Path, "new.txt"), "new\n")
	// Not removable while its work is not merged.
	if err := Remove(ctx, wt, false); !errors.Is(err, ErrDirty) {
		t.Fatalf("Remove with uncommitted work: %v", err)
	}
	// The main checkout dirty: refused, nothing changed.
	write(t, filepath.Join(repo, "a.txt"), "local edit\n")
	if _, err := Merge(ctx, wt, false); !errors.Is(err, ErrDirty) {
		t.Fatalf("Merge into a dirty checkout: %v", err)
	}
	git(t, repo, "checkout", "--", "a.txt")
	res, err := Merge(ctx, wt, false)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Committed || res.Into != "main" || res.UpToDate || res.Stat.String() != "2 files changed, 2 insertions(+)" {
		t.Errorf("Merge = %+v", res)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "new.txt")); string(b) != "new\n" {
		t.Errorf("main checkout's new.txt = %q", b)
	}
	if msg := git(t, repo, "log", "-1", "--format=%s"); msg != "Merge worktree w (pincer/w)" {
		t.Errorf("merge commit %q", msg)
	}
	again, err := Merge(ctx, wt, false)
	if err != nil || !again.UpToDate {
		t.Errorf("second Merge = %+v, %v", again, err)
	}
	if err := Remove(ctx, wt, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(wt.Path); !os.IsNotExist(err) {
		t.Errorf("checkout still there: %v", err)
	}
	if out := git(t, repo, "branch", "--list", "pincer/w"); out != "" {
		t.Errorf("branch still there: %q", out)
	}
	if l, _ := m.List(ctx, repo); len(l) != 0 {
		t.Errorf("List after Remove = %+v", l)
	}
}

func TestMergeConflictAborts(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"a.txt": "one\n"})
	m := New(t.TempDir())
	wt, err := m.Create(ctx, repo, "w")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(wt.Path, "a.txt"), "theirs\n")
	write(t, filepath.Join(repo, "a.txt"), "ours\n")
	git(t, repo, "commit", "-q", "-am", "ours")
	before := git(t, repo, "rev-parse", "HEAD")
	_, err = Merge(ctx, wt, false)
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "a.txt") {
		t.Fatalf("Merge = %v, want a conflict in a.txt", err)
	}
	if git(t, repo, "rev-parse", "HEAD") != before || git(t, repo, "status", "--porcelain") != "" {
		t.Errorf("main checkout changed after the aborted merge")
	}
	if _, err := os.Lstat(filepath.Join(repo, ".git", "MERGE_HEAD")); err == nil {
		t.Error("MERGE_HEAD left")
	}
	// Discard with force: the unmerged branch goes too.
	if err := Remove(ctx, wt, false); !errors.Is(err, ErrUnmerged) {
		t.Errorf("Remove of unmerged commits: %v", err)
	}
	if err := Remove(ctx, wt, true); err != nil {
		t.Fatal(err)
	}
}

// TestRepositoryHelpersDoNotRun: the repository's hooks, merge driver,
// filters and fsmonitor never run in Create, DiffStat, Commit, Merge or
// Remove (pincer's own git, outside the sandbox).
func TestRepositoryHelpersDoNotRun(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"a.txt": "one\n", ".gitattributes": "* merge=evil filter=evil\n"})
	marker := filepath.Join(t.TempDir(), "PROOF")
	payload := "touch " + marker
	for _, kv := range [][2]string{
		{"merge.evil.driver", payload}, {"filter.evil.smudge", payload}, {"filter.evil.clean", payload},
		{"core.fsmonitor", payload}, {"core.hooksPath", filepath.Join(repo, "hooks")},
	} {
		git(t, repo, "config", kv[0], kv[1])
	}
	for _, h := range []string{"post-checkout", "pre-commit", "commit-msg", "post-commit", "post-merge", "pre-merge-commit", "reference-transaction"} {
		for _, dir := range []string{filepath.Join(repo, "hooks"), filepath.Join(repo, ".git", "hooks")} {
			write(t, filepath.Join(dir, h), "#!/bin/sh\n"+payload+"\n")
			_ = os.Chmod(filepath.Join(dir, h), 0o755)
		}
	}
	m := New(t.TempDir())
	wt, err := m.Create(ctx, repo, "w")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(wt.Path, "a.txt"), "one\ntheirs\n")
	if _, err := DiffStat(ctx, wt); err != nil {
		t.Fatal(err)
	}
	// A change on both sides, so the merge driver would be asked.
	write(t, filepath.Join(repo, "a.txt"), "ours\none\n")
	if _, err := commitFixture(repo); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(ctx, wt, false); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "a.txt")); string(b) != "ours\none\ntheirs\n" {
		t.Errorf("merged a.txt = %q (git's text merge)", b)
	}
	if err := Remove(ctx, wt, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(marker); err == nil {
		t.Fatal("a repository helper ran")
	}
}

// commitFixture commits the main checkout's changes with the test's own
// git, its helpers off (the fixture's hooks are the attack, not the test's).
func commitFixture(repo string) (string, error) {
	return prompt.RunGit(context.Background(), repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--no-verify", "-am", "ours")
}

// TestCommitRefusesTamperedGitState (attack: the worktree session prepares
// pincer's own, unsandboxed git): HEAD pointed at main, COMMIT_EDITMSG, the
// HEAD reflog or the branch's reflog a symbolic link to a file of the
// person's, an object directory a link elsewhere, the .git file naming
// another git dir. Commit (and so Merge) refuses each, the target untouched
// and main where it was; the control commits.
func TestCommitRefusesTamperedGitState(t *testing.T) {
	ctx := context.Background()
	victim := filepath.Join(t.TempDir(), "bashrc")
	for _, c := range []struct {
		name   string
		tamper func(wt Worktree)
	}{
		{"HEAD names main", func(wt Worktree) { write(t, filepath.Join(wt.GitDir, "HEAD"), "ref: refs/heads/main\n") }},
		{"COMMIT_EDITMSG link", func(wt Worktree) { _ = os.Symlink(victim, filepath.Join(wt.GitDir, "COMMIT_EDITMSG")) }},
		{"HEAD reflog link", func(wt Worktree) {
			_ = os.MkdirAll(filepath.Join(wt.GitDir, "logs"), 0o755)
			_ = os.Remove(filepath.Join(wt.GitDir, "logs", "HEAD"))
			_ = os.Symlink(victim, filepath.Join(wt.GitDir, "logs", "HEAD"))
		}},
		{"branch reflog link", func(wt Worktree) {
			p := filepath.Join(wt.CommonDir, "logs", "refs", "heads", "pincer", wt.Name)
			_ = os.Remove(p)
			_ = os.Symlink(victim, p)
		}},
		{"object dir link", func(wt Worktree) { _ = os.Symlink(filepath.Dir(victim), filepath.Join(wt.CommonDir, "objects", "zz")) }},
		{".git names another", func(wt Worktree) {
			_ = os.Chmod(filepath.Join(wt.Path, ".git"), 0o644)
			write(t, filepath.Join(wt.Path, ".git"), "gitdir: "+t.TempDir()+"\n")
		}},
		{"control", func(Worktree) {}},
	} {
		t.Run(c.name, func(t *testing.T) {
			write(t, victim, "the person's file\n")
			repo := newRepo(t, map[string]string{"a.txt": "one\n"})
			wt, err := New(t.TempDir()).Create(ctx, repo, "w")
			if err != nil {
				t.Fatal(err)
			}
			mainHead := git(t, repo, "rev-parse", "main")
			write(t, filepath.Join(wt.Path, "a.txt"), "changed\n")
			c.tamper(wt)
			_, committed, err := Commit(ctx, wt, "pincer: checkpoint")
			if c.name == "control" {
				if err != nil || !committed {
					t.Fatalf("control: %v %v", committed, err)
				}
				return
			}
			if !errors.Is(err, ErrTampered) || committed {
				t.Errorf("Commit = %v, %v; want ErrTampered", committed, err)
			}
			if _, err := Merge(ctx, wt, false); !errors.Is(err, ErrTampered) {
				t.Errorf("Merge = %v; want ErrTampered", err)
			}
			if b, _ := os.ReadFile(victim); string(b) != "the person's file\n" {
				t.Errorf("the person's file = %q", b)
			}
			if git(t, repo, "rev-parse", "main") != mainHead {
				t.Error("main moved")
			}
		})
	}
}

// TestMergeRefusesProtectedChanges: a branch that changes a protected path
// (here .claude/settings.json, staged through git's plumbing as a session
// could where the sandbox keeps the file read-only) is not merged unless
// allowed; DiffStat marks the file.
func TestMergeRefusesProtectedChanges(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"a.txt": "one\n"})
	wt, err := New(t.TempDir()).Create(ctx, repo, "w")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(wt.Path, ".claude", "settings.json"), `{"hooks":{}}`+"\n")
	write(t, filepath.Join(wt.Path, "a.txt"), "two\n")
	st, err := DiffStat(ctx, wt)
	if err != nil {
		t.Fatal(err)
	}
	if p := st.ProtectedFiles(); len(p) != 1 || p[0] != ".claude/settings.json" || !strings.Contains(st.Lines(0), "(protected: ") {
		t.Errorf("protected %v, lines %s", p, st.Lines(0))
	}
	if _, err := Merge(ctx, wt, false); !errors.Is(err, ErrProtected) || !strings.Contains(err.Error(), ".claude/settings.json") {
		t.Fatalf("Merge = %v, want ErrProtected naming the file", err)
	}
	if _, err := os.Lstat(filepath.Join(repo, ".claude")); err == nil {
		t.Fatal("the refused merge brought .claude in")
	}
	if _, err := Merge(ctx, wt, true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(repo, ".claude", "settings.json")); err != nil {
		t.Errorf("the allowed merge: %v", err)
	}
}
