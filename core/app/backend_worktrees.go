package app

import (
	"context"

	"pincer/core/worktree"
)

// Worktrees lists the worktrees of the repository the run works in
// (Backend.Repo), with their diff stats and the sessions that made them
// (ListWorktrees), for the workbench's /worktrees.
func (b *Backend) Worktrees(ctx context.Context) ([]WorktreeInfo, error) {
	if b.Repo == "" {
		return nil, nil
	}
	return ListWorktrees(ctx, b.Store, b.Repo)
}

// MergeWorktree merges worktree name into the main checkout's current
// branch (MergeWorktree: a dirty main checkout refused, a conflict aborted,
// a change to a protected path only with allowProtected: the person saw it).
func (b *Backend) MergeWorktree(ctx context.Context, name string, allowProtected bool) (worktree.MergeResult, error) {
	return MergeWorktree(ctx, b.Repo, name, allowProtected)
}

// RemoveWorktree discards worktree name: its checkout, branch and record
// (force: also uncommitted work and commits not merged).
func (b *Backend) RemoveWorktree(ctx context.Context, name string, force bool) error {
	return RemoveWorktree(ctx, b.Repo, name, force)
}
