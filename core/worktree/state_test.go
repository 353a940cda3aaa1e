package worktree

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestMergedAndRemoveReasons: a fresh worktree is neither merged nor
// removable-with-reason-unmerged; one with a commit is not merged and its
// Remove names the unmerged commits (ErrUnmerged, not "uncommitted
// changes"), one with uncommitted work names that (ErrDirty); once merged
// it is Merged.
func TestMergedAndRemoveReasons(t *testing.T) {
	ctx := context.Background()
	repo := newRepo(t, map[string]string{"a.txt": "one\n"})
	m := New(t.TempDir())
	wt, err := m.Create(ctx, repo, "w")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := Merged(ctx, wt); ok || err != nil {
		t.Errorf("fresh: Merged = %v, %v", ok, err)
	}
	write(t, filepath.Join(wt.Path, "b.txt"), "b\n")
	if err := Remove(ctx, wt, false); !errors.Is(err, ErrDirty) || errors.Is(err, ErrUnmerged) {
		t.Errorf("uncommitted: Remove = %v", err)
	}
	if _, _, err := Commit(ctx, wt, "b"); err != nil {
		t.Fatal(err)
	}
	err = Remove(ctx, wt, false)
	if !errors.Is(err, ErrUnmerged) || errors.Is(err, ErrDirty) || strings.Contains(err.Error(), "uncommitted") {
		t.Errorf("committed, not merged: Remove = %v", err)
	}
	if ok, _ := Merged(ctx, wt); ok {
		t.Error("not merged yet: Merged")
	}
	if _, err := Merge(ctx, wt, false); err != nil {
		t.Fatal(err)
	}
	if ok, err := Merged(ctx, wt); !ok || err != nil {
		t.Errorf("after the merge: Merged = %v, %v", ok, err)
	}
	write(t, filepath.Join(wt.Path, "c.txt"), "c\n")
	if ok, _ := Merged(ctx, wt); ok {
		t.Error("new uncommitted work: still Merged")
	}
}
