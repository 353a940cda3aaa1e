package worktree

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"pincer/core/prompt"
)

// Commit records every change of wt's checkout (tracked and untracked, not
// ignored: `git add -A`) as one commit on its branch with message, by
// pincer's own git: no hook, no signing program (--no-gpg-sign: nothing may
// prompt in the workbench), the person's identity or, when git has none,
// "pincer <pincer@localhost>". It returns the branch's commit and whether a
// commit was made (false: nothing to commit). It refuses (ErrTampered),
// running no git, when the worktree's HEAD no longer names its branch or a
// symbolic link stands where git would write (checkGitState): the session
// there may have written its git dir.
func Commit(ctx context.Context, wt Worktree, message string) (commit string, committed bool, err error) {
	if err := checkGitState(wt); err != nil {
		return "", false, err
	}
	g := prompt.NewOwnGit(ctx, wt.Path)
	dirty, err := hasChanges(ctx, g, true)
	if err != nil {
		return "", false, fmt.Errorf("worktree %s: %w", wt.Name, err)
	}
	if dirty {
		if _, err := g.Run(ctx, "add", "-A", "--", "."); err != nil {
			return "", false, fmt.Errorf("worktree %s: %w", wt.Name, err)
		}
		args := append(identity(ctx, g), "commit", "--quiet", "--no-verify", "--no-gpg-sign", "-m", message)
		if _, err := g.Run(ctx, args...); err != nil {
			return "", false, fmt.Errorf("worktree %s: %w", wt.Name, err)
		}
	}
	head, err := g.Run(ctx, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return "", false, fmt.Errorf("worktree %s: %w", wt.Name, err)
	}
	return strings.TrimSpace(head), dirty, nil
}

// identity returns `-c user.name=pincer -c user.email=pincer@localhost`
// when git finds no committer identity of the person's, else nothing.
func identity(ctx context.Context, g *prompt.OwnGit) []string {
	if _, err := g.Run(ctx, "var", "GIT_COMMITTER_IDENT"); err == nil {
		return nil
	}
	return []string{"-c", "user.name=pincer", "-c", "user.email=pincer@localhost"}
}

// hasChanges reports whether the checkout of g has uncommitted changes to
// tracked files, or (withUntracked) untracked files that are not ignored.
func hasChanges(ctx context.Context, g *prompt.OwnGit, withUntracked bool) (bool, error) {
	untracked := "--untracked-files=no"
	if withUntracked {
		untracked = "--untracked-files=all"
	}
	out, err := g.Run(ctx, "status", "--porcelain", "-z", "--ignore-submodules=all", untracked)
	if err != nil {
		return false, err
	}
	return strings.TrimSpace(out) != "", nil
}

// MergeResult is what Merge did.
type MergeResult struct {
	// Into is the branch of the main checkout merged into ("" when its HEAD
	// is detached).
	Into string `json:"into"`
	// Commit is the main checkout's HEAD after the merge.
	Commit string `json:"commit"`
	// Committed reports that Merge first committed the worktree's
	// uncommitted work on its branch (see Commit).
	Committed bool `json:"committed,omitempty"`
	// UpToDate: the branch had nothing the main checkout lacked.
	UpToDate bool `json:"upToDate,omitempty"`
	// Stat is what the merge brought in (the worktree's DiffStat before it).
	Stat Stat `json:"stat"`
}

// Merge merges wt's branch into the current branch of the main checkout
// (wt.Repo) with a merge commit ("Merge worktree NAME (BRANCH)"), by
// pincer's own git: no hook, no signing, and every merge driver the
// repository's configuration names replaced by git's own text merge (`git
// merge-file`), so no program of the repository runs. The worktree's
// uncommitted work is committed on its branch first (Commit), so what is
// merged is what DiffStat showed. It refuses, changing nothing in the main
// checkout, when it has uncommitted changes to tracked files (ErrDirty), and —
// unless allowProtected, the person having seen them — when the merge would
// change a protected path there (ErrProtected naming them; read from git's
// trees after that commit, protectedInMerge: a worktree session can commit
// one through git's plumbing, hide it with --skip-worktree or rewrite its
// branch's history, where the sandbox keeps the file read-only); a merge that
// meets conflicts is aborted — the main checkout as it was — and the error
// (ErrConflict) names the conflicting files. The worktree stays; Remove it
// after.
func Merge(ctx context.Context, wt Worktree, allowProtected bool) (MergeResult, error) {
	var res MergeResult
	if err := checkGitState(wt); err != nil {
		return res, err
	}
	main := prompt.NewOwnGit(ctx, wt.Repo)
	dirty, err := hasChanges(ctx, main, false)
	if err != nil {
		return res, fmt.Errorf("worktree %s: the main checkout: %w", wt.Name, err)
	}
	if dirty {
		return res, fmt.Errorf("%w in the main checkout %s: commit or stash them first, then merge worktree %s", ErrDirty, wt.Repo, wt.Name)
	}
	if res.Stat, err = DiffStat(ctx, wt); err != nil {
		return res, err
	}
	if _, res.Committed, err = Commit(ctx, wt, fmt.Sprintf("pincer: work in worktree %s", wt.Name)); err != nil {
		return res, err
	}
	if !allowProtected {
		p, err := protectedInMerge(ctx, main, wt.Repo, wt.Branch)
		if err != nil {
			return res, fmt.Errorf("worktree %s: the protected-path check: %w", wt.Name, err)
		}
		if len(p) > 0 {
			return res, fmt.Errorf("%w: merging worktree %s would change %s in the main checkout: look at them (git -C %s diff HEAD...%s) and merge with force if you want them",
				ErrProtected, wt.Name, strings.Join(p, ", "), wt.Repo, wt.Branch)
		}
	}
	if b, err := main.Run(ctx, "symbolic-ref", "--quiet", "--short", "HEAD"); err == nil {
		res.Into = strings.TrimSpace(b)
	}
	if _, err := main.Run(ctx, "merge-base", "--is-ancestor", "--end-of-options", "refs/heads/"+wt.Branch, "HEAD"); err == nil {
		res.UpToDate = true
		res.Commit, err = headOf(ctx, main)
		return res, err
	}
	args, err := mergeDriverOverrides(ctx, main)
	if err != nil {
		return res, fmt.Errorf("worktree %s: %w", wt.Name, err)
	}
	args = append(append(args, identity(ctx, main)...), "merge", "--no-ff", "--no-edit", "--no-verify", "--no-gpg-sign",
		"--no-log", "-m", fmt.Sprintf("Merge worktree %s (%s)", wt.Name, wt.Branch), "--end-of-options", "refs/heads/"+wt.Branch)
	if _, mergeErr := main.Run(ctx, args...); mergeErr != nil {
		conflicts, _ := main.Run(ctx, "diff", "--name-only", "--diff-filter=U", "-z")
		if _, err := os.Lstat(filepath.Join(wt.CommonDir, "MERGE_HEAD")); err == nil {
			if _, err := main.Run(ctx, "merge", "--abort"); err != nil {
				return res, fmt.Errorf("worktree %s: the merge failed (%v) and could not be aborted: %w", wt.Name, mergeErr, err)
			}
		}
		if files := strings.FieldsFunc(conflicts, func(r rune) bool { return r == 0 }); len(files) > 0 {
			return res, fmt.Errorf("%w: merging %s into %s conflicts in %s; the merge was aborted and the main checkout is as it was (resolve by hand: git merge %s)",
				ErrConflict, wt.Branch, wt.Repo, strings.Join(files, ", "), wt.Branch)
		}
		return res, fmt.Errorf("worktree %s: %w", wt.Name, mergeErr)
	}
	res.Commit, err = headOf(ctx, main)
	return res, err
}

// short is a commit hash cut to 12 characters.
func short(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

// headOf is the full hash of HEAD in g's checkout.
func headOf(ctx context.Context, g *prompt.OwnGit) (string, error) {
	out, err := g.Run(ctx, "rev-parse", "--verify", "HEAD^{commit}")
	return strings.TrimSpace(out), err
}

// mergeDriverOverrides returns `-c merge.D.driver=git merge-file %A %O %B`
// for each merge driver D the repository's own configuration (not the
// person's global or the system one) defines: a driver is a shell command
// git runs for a file whose .gitattributes say merge=D, and both the
// attributes and the repository's configuration are the project's, not the
// person's.
func mergeDriverOverrides(ctx context.Context, g *prompt.OwnGit) ([]string, error) {
	out, err := g.Run(ctx, "config", "--show-scope", "--name-only", "-z", "--get-regexp", `^merge\..+\.driver$`)
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() == 1 {
			return nil, nil // no such key
		}
		return nil, err
	}
	// -z with --show-scope: "SCOPE\0KEY\0" per setting.
	var args []string
	fields := strings.Split(out, "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		scope, key := fields[i], fields[i+1]
		if scope == "global" || scope == "system" || key == "" {
			continue
		}
		args = append(args, "-c", key+"=git merge-file %A %O %B")
	}
	return args, nil
}

// Remove deletes wt: its checkout (`git worktree remove`), its branch and
// its record. Unless force, it refuses, changing nothing, while the checkout
// has uncommitted changes or untracked files (ErrDirty), or the branch has
// commits the main checkout's HEAD does not contain (ErrUnmerged).
func Remove(ctx context.Context, wt Worktree, force bool) error {
	main := prompt.NewOwnGit(ctx, wt.Repo)
	if !force && !wt.Missing {
		dirty, err := hasChanges(ctx, prompt.NewOwnGit(ctx, wt.Path), true)
		if err != nil {
			return fmt.Errorf("worktree %s: %w", wt.Name, err)
		}
		if dirty {
			return fmt.Errorf("%w in worktree %s (%s): merge it, or discard them with force", ErrDirty, wt.Name, wt.Path)
		}
		if _, err := main.Run(ctx, "merge-base", "--is-ancestor", "--end-of-options", "refs/heads/"+wt.Branch, "HEAD"); err != nil {
			return fmt.Errorf("%w: the branch %s of worktree %s has commits the main checkout lacks: merge it, or discard them with force", ErrUnmerged, wt.Branch, wt.Name)
		}
	}
	if !wt.Missing {
		if _, err := main.Run(ctx, "worktree", "remove", "--force", "--force", "--", wt.Path); err != nil {
			return fmt.Errorf("worktree %s: %w", wt.Name, err)
		}
	} else if _, err := main.Run(ctx, "worktree", "prune"); err != nil {
		return fmt.Errorf("worktree %s: %w", wt.Name, err)
	}
	if _, err := main.Run(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", "refs/heads/"+wt.Branch); err == nil {
		if _, err := main.Run(ctx, "branch", "-D", "--end-of-options", wt.Branch); err != nil {
			return fmt.Errorf("worktree %s: %w", wt.Name, err)
		}
	}
	if err := os.Remove(recordPath(filepath.Dir(wt.Path), wt.Name)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("worktree %s: %w", wt.Name, err)
	}
	return nil
}
