package worktree

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchRepo makes a repository of files files (each ~40 lines, in
// directories of 50) with one commit, for the cost of a worktree.
func benchRepo(b *testing.B, files int) string {
	b.Helper()
	repo, _ := filepath.EvalSymlinks(b.TempDir())
	git(b, repo, "init", "-q", "-b", "main")
	body := strings.Repeat("func f() { return 42 } // a line of code\n", 40)
	for i := 0; i < files; i++ {
		write(b, filepath.Join(repo, fmt.Sprintf("pkg%03d", i/50), fmt.Sprintf("file%04d.go", i)), body)
	}
	git(b, repo, "add", "-A")
	git(b, repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "first")
	return repo
}

// BenchmarkCreateWorktree: Create (a branch at HEAD, `git worktree add`
// checking out every file, the record) in a repository of 2,000 files; the
// worktree is removed outside the timer.
func BenchmarkCreateWorktree(b *testing.B) {
	ctx := context.Background()
	repo := benchRepo(b, 2000)
	m := New(b.TempDir())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		wt, err := m.Create(ctx, repo, fmt.Sprintf("w%d", i))
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := Remove(ctx, wt, true); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// BenchmarkDiffStat: DiffStat of a worktree of 2,000 files with 10 edited
// and 5 untracked.
func BenchmarkDiffStat(b *testing.B) {
	ctx := context.Background()
	repo := benchRepo(b, 2000)
	wt, err := New(b.TempDir()).Create(ctx, repo, "w")
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		write(b, filepath.Join(wt.Path, "pkg000", fmt.Sprintf("file%04d.go", i)), "changed\n")
	}
	for i := 0; i < 5; i++ {
		write(b, filepath.Join(wt.Path, fmt.Sprintf("new%d.go", i)), "new\nfile\n")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, err := DiffStat(ctx, wt)
		if err != nil || len(st.Files) != 15 {
			b.Fatalf("%v %d", err, len(st.Files))
		}
	}
	_ = os.RemoveAll(wt.Path)
}
