package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// GitShare names the part of a main repository's git directory that git,
// run in a linked worktree pincer made (core/worktree), may write: the
// worktree's own git directory (index, HEAD, ORIG_HEAD, MERGE_HEAD, logs).
// With a Workspace rooted at that worktree holding it (Workspace.ShareGit),
// `git status`, `git diff`, `git log`, `git restore` and `git checkout --
// FILE` work under the sandbox while the rest of the main repository stays
// read-only: its configuration, hooks, info, HEAD, index, every ref (the
// worktree's own branch among them: no new name under refs/heads/pincer/, no
// loose ref shadowing a packed one) and the objects (objects/info/alternates
// would have the person's git read objects from a directory the model chose;
// a writable objects directory lets a command delete the person's objects,
// or add a pack whose index maps an existing name to other content). So the
// session's `git add` and `git commit` stop at the objects or the ref, and
// pincer's own git records the worktree's work on its branch (worktree.Commit:
// after each turn, at the end of `pincer run --worktree` and of a worktree
// subagent, before a merge). Git's files ref backend writes BRANCH.lock beside
// the ref and renames it on, so the directory holding the branch's ref would
// have to be writable, and then any name could be created in it.
type GitShare struct {
	// CommonDir is the main repository's git directory (REPO/.git).
	CommonDir string
	// GitDir is the worktree's own git directory (CommonDir/worktrees/X).
	GitDir string
}

// ShareGit lets commands in w (whose root must be the linked worktree of g:
// its .git file names g.GitDir) write the parts of the main repository's git
// directory g names (see GitShare, and Executor's trees). Paths must be
// absolute and symlink-free, GitDir directly inside CommonDir/worktrees.
// Only pincer calls it, for a worktree it made; nothing the model writes
// decides it.
func (w *Workspace) ShareGit(g GitShare) error {
	bad := func(why string) error { return fmt.Errorf("share git of %s: %s", w.root, why) }
	for _, p := range []string{g.CommonDir, g.GitDir} {
		if !filepath.IsAbs(p) || filepath.Clean(p) != p {
			return bad(fmt.Sprintf("%q is not an absolute clean path", p))
		}
		if real, err := filepath.EvalSymlinks(p); err != nil || real != p {
			return bad(fmt.Sprintf("%s is not a symlink-free directory", p))
		}
	}
	if filepath.Dir(g.GitDir) != filepath.Join(g.CommonDir, "worktrees") {
		return bad(fmt.Sprintf("%s is not a worktree's git directory of %s", g.GitDir, g.CommonDir))
	}
	b, err := os.ReadFile(filepath.Join(w.root, ".git"))
	if err != nil {
		return bad(fmt.Sprintf("its .git file: %v", err))
	}
	named, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok || filepath.Clean(strings.TrimSpace(named)) != g.GitDir {
		return bad(fmt.Sprintf("its .git file does not name %s", g.GitDir))
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.git = &g
	return nil
}

// SharedGit returns what ShareGit gave, ok false when nothing.
func (w *Workspace) SharedGit() (GitShare, bool) {
	w.mu.RLock()
	defer w.mu.RUnlock()
	if w.git == nil {
		return GitShare{}, false
	}
	return *w.git, true
}

// gitShareTrees returns the writable trees of g: the worktree's own git
// directory, with the files that say where git reads its configuration
// (commondir, gitdir, config.worktree, config) read-only. No ref directory and
// no object directory is writable (see GitShare). Read-only paths are
// bind-mounted in a mount namespace; without one the tree is carved, and a
// directory holding a read-only entry accepts no new one (the worktree's git
// dir then takes no lock file: reported as degraded).
func gitShareTrees(g GitShare) []treeSpec {
	own := treeSpec{Path: g.GitDir, Mount: true}
	for _, n := range []string{"commondir", "gitdir", "config.worktree", "config"} {
		own.ReadOnly = append(own.ReadOnly, filepath.Join(g.GitDir, n))
	}
	if fi, err := os.Lstat(g.GitDir); err != nil || !fi.IsDir() {
		return nil
	}
	return []treeSpec{own}
}
