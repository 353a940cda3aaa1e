package worktree

import (
	"context"
	"fmt"
	"strings"

	"pincer/core/prompt"
)

// MergeProtected lists the protected paths that merging wt's branch, as
// committed, would change in the main checkout (read from git's trees
// against every merge base with the main checkout's HEAD, as Merge's check
// does; wt's uncommitted work is what DiffStat's FileStat.Protected marks).
// `/worktrees` and `pincer worktrees` show them before a merge is asked for.
func MergeProtected(ctx context.Context, wt Worktree) ([]string, error) {
	p, err := protectedInMerge(ctx, prompt.NewOwnGit(ctx, wt.Repo), wt.Repo, wt.Branch)
	if err != nil {
		return nil, fmt.Errorf("worktree %s: %w", wt.Name, err)
	}
	return p, nil
}

// Merged reports that everything wt holds is in the main checkout: its
// branch moved on from Base, that commit is contained in the main
// checkout's HEAD, and its checkout has no uncommitted work. A worktree
// whose branch never moved is not merged (it is unchanged: DiffStat is
// Empty).
func Merged(ctx context.Context, wt Worktree) (bool, error) {
	if wt.Missing {
		return false, nil
	}
	g := prompt.NewOwnGit(ctx, wt.Path)
	tip, err := g.Run(ctx, "rev-parse", "--verify", "--end-of-options", "refs/heads/"+wt.Branch+"^{commit}")
	if err != nil {
		return false, fmt.Errorf("worktree %s: %w", wt.Name, err)
	}
	if strings.TrimSpace(tip) == wt.Base {
		return false, nil
	}
	if _, err := prompt.NewOwnGit(ctx, wt.Repo).Run(ctx, "merge-base", "--is-ancestor", "--end-of-options", "refs/heads/"+wt.Branch, "HEAD"); err != nil {
		return false, nil
	}
	dirty, err := hasChanges(ctx, g, true)
	if err != nil {
		return false, fmt.Errorf("worktree %s: %w", wt.Name, err)
	}
	return !dirty, nil
}
