package worktree

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"pincer/core/permission"
	"pincer/core/prompt"
)

// emptyTree is git's empty tree object (SHA-1).
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbad4904"

// protectedInMerge lists the protected paths (core/permission.Protected,
// relative to the main checkout) that merging branch into main's HEAD can
// change, read from git's trees, never the worktree's files: every path that
// differs between the branch's commit and a merge base of it and HEAD (all of
// them, `merge-base --all`, so a criss-cross history is covered; with no
// merge base the whole branch tree). A three-way merge changes in the main
// checkout only paths the branch changed since a base, so this is a superset
// of what the merge writes — whatever the worktree's index, skip-worktree
// bits or the branch's history (a branch that took in the main checkout's
// later commits moves the base away from Worktree.Base).
func protectedInMerge(ctx context.Context, main *prompt.OwnGit, repo, branch string) ([]string, error) {
	ref := "refs/heads/" + branch
	bases, err := main.Run(ctx, "merge-base", "--all", "--end-of-options", "HEAD", ref)
	if err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			return nil, err
		}
		bases = emptyTree // unrelated histories
	}
	seen := map[string]bool{}
	var out []string
	for _, b := range strings.Fields(bases) {
		names, err := main.Run(ctx, "diff-tree", "-r", "-z", "--name-only", "--no-renames", "--no-ext-diff", "--no-textconv", "--end-of-options", b, ref)
		if err != nil {
			return nil, err
		}
		for _, p := range strings.Split(names, "\x00") {
			if p == "" || seen[p] {
				continue
			}
			seen[p] = true
			if _, ok := permission.Protected(filepath.Join(repo, filepath.FromSlash(p)), []string{repo}); ok {
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}
