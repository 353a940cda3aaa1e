package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A workspace root that is a linked worktree (its .git a file naming a git
// dir: one pincer made, core/worktree, or one the person made with `git
// worktree add`) has its main repository elsewhere: the main checkout and its
// git directory, whose config, hooks, HEAD, index and other worktrees' git
// dirs decide what git runs there. The session in the worktree must never
// write them — it has no more power than a session in the main checkout,
// where they are protected — also when they lie in a writable tree (a
// repository under /tmp). gitSeals names them; the helper bind-mounts each
// read-only whole in its mount namespace, the writable trees inside it (the
// parts of the git dir GitShare leaves writable) bound back first
// (sealWithMounts); without a mount namespace the trees holding it are carved
// around it (carvePincerDirs).

// gitSeals returns the main repositories to seal for the workspace roots of e
// that are linked worktrees: the main checkout (the directory holding the
// common git dir when that is named .git), else the common git dir itself;
// each resolved, and only when it lies in one of trees (not being one: a
// writable root the person configured) and is not itself a workspace root
// (whose own protected paths then hold); inside a directory added to the
// workspace (--add-dir holding the repository) it is sealed too, since that
// directory's protected paths are its own, not the repository's. Outside
// every writable tree Landlock keeps it read-only already.
func (e *Executor) gitSeals(trees []treeSpec) []string {
	if e.Workspace == nil {
		return nil
	}
	roots := e.Workspace.Roots()
	var commons []string
	for _, root := range roots {
		if c, ok := linkedCommonDir(root); ok {
			commons = append(commons, c)
		}
	}
	if g, ok := e.Workspace.SharedGit(); ok {
		commons = append(commons, g.CommonDir)
	}
	var out []string
	for _, c := range commons {
		p := c
		if filepath.Base(c) == ".git" {
			p = filepath.Dir(c)
		}
		if slices.Contains(roots, p) ||
			!slices.ContainsFunc(trees, func(t treeSpec) bool { return t.Path != p && within(t.Path, p) }) {
			continue
		}
		out = append(out, p)
	}
	out = dedupe(out)
	// An outer one seals the inner ones with it.
	return slices.DeleteFunc(out, func(p string) bool {
		return slices.ContainsFunc(out, func(q string) bool { return q != p && within(q, p) })
	})
}

// linkedCommonDir returns the resolved common git directory of the linked
// worktree (or submodule checkout) at root: the git dir its .git file names,
// or the one that git dir's commondir file names. ok is false when root's
// .git is not such a file or names nothing that exists.
func linkedCommonDir(root string) (string, bool) {
	fi, err := os.Lstat(filepath.Join(root, ".git"))
	if err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	b, err := os.ReadFile(filepath.Join(root, ".git"))
	if err != nil {
		return "", false
	}
	named, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return "", false
	}
	gitDir := strings.TrimSpace(named)
	if !filepath.IsAbs(gitDir) {
		gitDir = filepath.Join(root, gitDir)
	}
	gitDir, err = filepath.EvalSymlinks(gitDir)
	if err != nil {
		return "", false
	}
	common := gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		if common, err = filepath.EvalSymlinks(c); err != nil {
			return "", false
		}
	}
	return common, true
}

// unpinSealed drops from the read-only paths of each tree that holds a
// sealed directory (gitSeals) those inside it: the seal keeps them
// read-only whole, and pinning their parts again would bind them read-write
// (a new bind mount is writable whatever mount holds it) — a nested
// repository's .git in a directory added to the workspace that is also a
// worktree's main repository (withGitDirs). A tree inside the sealed
// directory (the parts GitShare leaves writable) keeps its own pins.
func unpinSealed(trees []treeSpec, sealed []string) {
	for i := range trees {
		trees[i].ReadOnly = slices.DeleteFunc(trees[i].ReadOnly, func(p string) bool {
			return slices.ContainsFunc(sealed, func(s string) bool { return within(s, p) && !within(s, trees[i].Path) })
		})
	}
}
