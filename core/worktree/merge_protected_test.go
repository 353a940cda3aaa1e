package worktree

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMergeProtectedReadsTrees: the protected-path check of Merge reads what
// git would merge (the branch's commits against the merge base), not the
// worktree's files: protected files committed through git's plumbing and
// hidden with --skip-worktree, and a branch whose history takes in the main
// checkout's later commit (so the base moved) while keeping a protected file
// the main checkout deleted, are both refused.
func TestMergeProtectedReadsTrees(t *testing.T) {
	ctx := context.Background()
	t.Run("plumbing and skip-worktree", func(t *testing.T) {
		repo := newRepo(t, map[string]string{"a.txt": "one\n"})
		wt, err := New(t.TempDir()).Create(ctx, repo, "w")
		if err != nil {
			t.Fatal(err)
		}
		names := []string{".envrc", ".claude/settings.json", ".vscode/settings.json", "AGENTS.md", "sub/CLAUDE.md"}
		for _, n := range names {
			sha := gitIn(t, wt.Path, "MARKER\n", "hash-object", "-w", "--stdin")
			git(t, wt.Path, "update-index", "--add", "--cacheinfo", "100644,"+sha+","+n)
		}
		git(t, wt.Path, "commit", "-q", "-m", "plumbing")
		git(t, wt.Path, append([]string{"update-index", "--skip-worktree"}, names...)...)
		_, err = Merge(ctx, wt, false)
		if !errors.Is(err, ErrProtected) {
			t.Fatalf("Merge = %v, want ErrProtected", err)
		}
		for _, n := range names {
			if !strings.Contains(err.Error(), n) {
				t.Errorf("the refusal does not name %s: %v", n, err)
			}
			if _, err := os.Lstat(filepath.Join(repo, n)); err == nil {
				t.Errorf("%s reached the main checkout", n)
			}
		}
	})
	t.Run("branch takes in main and keeps a deleted protected file", func(t *testing.T) {
		repo := newRepo(t, map[string]string{"a.txt": "one\n", ".envrc": "use nix\n"})
		wt, err := New(t.TempDir()).Create(ctx, repo, "w")
		if err != nil {
			t.Fatal(err)
		}
		git(t, repo, "rm", "-q", ".envrc")
		git(t, repo, "commit", "-q", "-m", "drop .envrc")
		// The session: a commit with its own (Base's) tree and the main
		// checkout's HEAD as a second parent; its files and index unchanged.
		c := git(t, wt.Path, "commit-tree", "HEAD^{tree}", "-p", "HEAD", "-p", "main", "-m", "take main")
		git(t, wt.Path, "update-ref", "refs/heads/"+wt.Branch, c)
		if st, err := DiffStat(ctx, wt); err != nil || !st.Empty() {
			t.Logf("diff stat %v %v", st, err)
		}
		if _, err := Merge(ctx, wt, false); !errors.Is(err, ErrProtected) || !strings.Contains(err.Error(), ".envrc") {
			t.Fatalf("Merge = %v, want ErrProtected naming .envrc", err)
		}
		if _, err := os.Lstat(filepath.Join(repo, ".envrc")); err == nil {
			t.Error(".envrc came back into the main checkout")
		}
		if _, err := Merge(ctx, wt, true); err != nil {
			t.Fatalf("allowed: %v", err)
		}
	})
}

// gitIn runs git in dir with stdin.
func gitIn(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := gitCmd(dir, args...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}
