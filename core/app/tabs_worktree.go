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
	return TabWorktree{Agent: ag, Path: wt.Path, Branch: wt.Branch, Commit: worktreeCommit(wt)}, nil
}

// worktreeCommit is the one rule of a session's work in a worktree: after
// each turn (a workbench tab's, a `pincer --worktree` workbench session's,
// the one turn of `pincer run --worktree`) everything it changed there is
// committed on the worktree's branch (worktree.Commit with message; nothing
// changed: no commit).
func worktreeCommit(wt worktree.Worktree) func(ctx context.Context, message string) error {
	return func(ctx context.Context, message string) error {
		_, _, err := worktree.Commit(ctx, wt, message)
		return err
	}
}

// WorktreeCommit is the commit after each turn of the Run's own worktree
// (Options.Worktree: worktreeCommit) for Backend.CommitWorktree; nil when
// the Run works in no worktree.
func (r *Run) WorktreeCommit() func(ctx context.Context, message string) error {
	if r.Worktree == nil {
		return nil
	}
	return worktreeCommit(*r.Worktree)
}
