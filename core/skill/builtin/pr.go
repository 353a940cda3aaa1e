package builtin

import (
	"pincer/core/prompt"

	"context"
	"fmt"
	"strings"
)

// prData is what /pr gathers.
type prData struct {
	Branch    string
	Base      string   // the base branch compared against: origin/main, main, ...
	BaseWhy   string   // how the base was chosen
	MergeBase string   // the merge base's short hash
	Commits   []string // git log --oneline BASE..HEAD
	Stat      string   // git diff --stat MERGEBASE HEAD
	Diff      Diff     // git diff MERGEBASE HEAD
	Dirty     []string // git status --short: changes not in any commit yet
	Upstream  string   // the branch's upstream ("" when it has none: not pushed)
	HasGh     bool     // gh is on PATH
	Args      string
}

var prSkill = Skill{
	Name:         "pr",
	Description:  "Write a pull request for this branch (gh pr create when gh is installed)",
	ArgumentHint: "[what to say]",
	Gathers:      "the base branch (origin/HEAD, else main or master), git log BASE..HEAD, the diff stat and diff against the merge base (cut at 40 KB), uncommitted files, the upstream, whether gh is on PATH",
	gather:       gatherPR,
}

// baseCandidates are tried in order when origin/HEAD names nothing.
var baseCandidates = []string{"origin/main", "origin/master", "main", "master"}

// findBase picks the branch a pull request would merge into: origin/HEAD's
// target, else the first of baseCandidates that exists.
func findBase(ctx context.Context, g *prompt.OwnGit) (base, why string, err error) {
	if out, err := g.Run(ctx, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"); err == nil {
		if b := strings.TrimSpace(out); b != "" {
			return b, "origin/HEAD points to it", nil
		}
	}
	for _, c := range baseCandidates {
		if isCommit(ctx, g, c) {
			return c, "origin/HEAD is not set; the first of origin/main, origin/master, main, master that exists", nil
		}
	}
	return "", "", fmt.Errorf("no base branch: origin/HEAD is not set and none of origin/main, origin/master, main, master exists")
}

// gatherPR collects /pr's context. It fails outside a repository, without
// commits, or without a base branch to compare with.
func gatherPR(ctx context.Context, env Env) (any, error) {
	g := prompt.NewOwnGit(ctx, env.Dir)
	if _, err := repoRoot(ctx, g); err != nil {
		return nil, err
	}
	if !hasCommits(ctx, g) {
		return nil, fmt.Errorf("the repository has no commits yet: commit first (/commit)")
	}
	d := prData{Branch: branchName(ctx, g), Args: env.Args, HasGh: env.lookPath("gh")}
	var err error
	if d.Base, d.BaseWhy, err = findBase(ctx, g); err != nil {
		return nil, err
	}
	mb, err := g.Run(ctx, "merge-base", "--end-of-options", d.Base, "HEAD")
	if err != nil {
		return nil, fmt.Errorf("%s and HEAD have no common commit (%v)", d.Base, err)
	}
	mergeBase := strings.TrimSpace(mb)
	d.MergeBase = mergeBase
	if len(d.MergeBase) > 12 {
		d.MergeBase = d.MergeBase[:12]
	}
	if d.Commits, err = oneline(ctx, g, maxLogLines, d.Base+"..HEAD"); err != nil {
		return nil, err
	}
	stat, err := g.Run(ctx, diffArgs("--stat", "--end-of-options", mergeBase, "HEAD", "--")...)
	if err != nil {
		return nil, err
	}
	d.Stat = strings.TrimRight(stat, "\n")
	diff, err := g.Run(ctx, diffArgs("--end-of-options", mergeBase, "HEAD", "--")...)
	if err != nil {
		return nil, err
	}
	d.Diff = cutDiff(diff, "git diff "+d.Base+"...HEAD")
	if d.Dirty, err = statusShort(ctx, g); err != nil {
		return nil, err
	}
	if out, err := g.Run(ctx, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"); err == nil {
		d.Upstream = strings.TrimSpace(out)
	}
	return d, nil
}
