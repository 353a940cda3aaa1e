package builtin

import (
	"context"

	"pincer/core/prompt"
)

// maxStyleCommits is how many recent commit subjects /commit shows for style.
const maxStyleCommits = 10

// commitData is what /commit gathers.
type commitData struct {
	Branch   string
	Status   []string // git status --short
	Staged   Diff     // git diff --cached
	Unstaged Diff     // git diff
	Recent   []string // the last maxStyleCommits subjects, oneline
	Args     string   // what the person added after /commit
}

var commitSkill = Skill{
	Name:         "commit",
	Description:  "Commit the current changes with a message in the repository's style",
	ArgumentHint: "[what to say or leave out]",
	Gathers:      "git status --short, the staged and unstaged diff (each cut at 40 KB, the cut marked), the last 10 commit subjects, the branch",
	gather:       gatherCommit,
}

// gatherCommit collects /commit's context: it fails only outside a repository.
func gatherCommit(ctx context.Context, env Env) (any, error) {
	g := prompt.NewOwnGit(ctx, env.Dir)
	if _, err := repoRoot(ctx, g); err != nil {
		return nil, err
	}
	d := commitData{Branch: branchName(ctx, g), Args: env.Args}
	var err error
	if d.Status, err = statusShort(ctx, g); err != nil {
		return nil, err
	}
	staged, err := g.Run(ctx, diffArgs("--cached")...)
	if err != nil {
		return nil, err
	}
	d.Staged = cutDiff(staged, "git diff --cached")
	unstaged, err := g.Run(ctx, diffArgs()...)
	if err != nil {
		return nil, err
	}
	d.Unstaged = cutDiff(unstaged, "git diff")
	if hasCommits(ctx, g) {
		if d.Recent, err = oneline(ctx, g, maxStyleCommits, "HEAD"); err != nil {
			return nil, err
		}
	}
	return d, nil
}
