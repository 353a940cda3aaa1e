package worktree

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
)

// Two isolation "worktree" subagents of one response start at once: each
// CreateFree gets its own name and branch (F5: the second failed with "a
// branch named 'pincer/agent-general-purpose' already exists").
func TestCreateFreeConcurrent(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"a.txt": "one\n"})
	m := New(filepath.Join(t.TempDir(), "worktrees"))
	const n = 4
	var wg sync.WaitGroup
	wts := make([]Worktree, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wts[i], errs[i] = m.CreateFree(ctx, repo, "agent-general-purpose")
		}()
	}
	wg.Wait()
	branches := map[string]bool{}
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("CreateFree %d: %v", i, errs[i])
		}
		if branches[wts[i].Branch] {
			t.Errorf("branch %s given twice", wts[i].Branch)
		}
		branches[wts[i].Branch] = true
	}
}
