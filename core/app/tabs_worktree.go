package app

import (
	"context"

	"pincer/core/worktree"
)

// TabWorktree makes a new git worktree for a workbench tab's session (the
// first free of name, name-2, …, on branch pincer/NAME at HEAD: NewWorktree)
// and derives the agent confined to it (DeriveAgent with its Workspace):
// Backend.OpenWorktree in the workbench. Its Commit commits the worktree's
// work on its branch (worktree.Commit).
func (r *Run) TabWorktree(ctx context.Context, name string) (TabWorktree, error) {
	wt, ws, err := r.NewWorktree(ctx, name)
	if err != nil {
		return TabWorktree{}, err
	}
	ag, err := r.DeriveAgent(AgentSpec{Workspace: ws})
	if err != nil {
		return TabWorktree{}, err
	}
	commit := func(ctx context.Context, message string) error {
		_, _, err := worktree.Commit(ctx, wt, message)
		return err
	}
	return TabWorktree{Agent: ag, Path: wt.Path, Branch: wt.Branch, Commit: commit}, nil
}
