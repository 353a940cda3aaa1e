package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// GitShare names the parts of a main repository's git directory that git,
// run in a linked worktree pincer made (core/worktree), writes to: the
// objects, the worktree's own branch ref and its reflog, and the worktree's
// own git directory (index, HEAD, ORIG_HEAD, COMMIT_EDITMSG, logs). With a
// Workspace rooted at that worktree holding it (Workspace.ShareGit), `git add`
// and `git commit` work under the sandbox while the rest of the main
// repository stays read-only: its configuration, hooks, info, HEAD, index and
// other branches, and the main checkout's files.
type GitShare struct {
	// CommonDir is the main repository's git directory (REPO/.git).
	CommonDir string
	// GitDir is the worktree's own git directory (CommonDir/worktrees/X).
	GitDir string
	// Branch is the worktree's branch, short ("pincer/NAME").
	Branch string
}

// ShareGit lets commands in w (whose root must be the linked worktree of g:
// its .git file names g.GitDir) write the parts of the main repository's git
// directory g names (see GitShare, and Executor's trees). Paths must be
// absolute and symlink-free, GitDir directly inside CommonDir/worktrees, and
// Branch a branch name of at least two components without "..". Only pincer
// calls it, for a worktree it made; nothing the model writes decides it.
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
	parts := strings.Split(g.Branch, "/")
	if len(parts) < 2 || slices.ContainsFunc(parts, func(s string) bool { return s == "" || s == "." || s == ".." || strings.HasPrefix(s, ".") }) {
		return bad(fmt.Sprintf("branch %q", g.Branch))
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

// gitShareTrees returns the writable trees of g: the objects; the directory
// of the branch's ref and of its reflog, with every other entry there (other
// worktrees' branches) read-only; the worktree's own git directory with the
// files that say where git reads its configuration (commondir, gitdir,
// config.worktree) read-only. Read-only paths are bind-mounted in a mount
// namespace; without one the trees are carved, and a directory holding a
// read-only entry accepts no new one (so git cannot take its lock files
// there, and commits fail: reported as degraded).
func gitShareTrees(g GitShare) []treeSpec {
	var out []treeSpec
	add := func(t treeSpec) {
		if fi, err := os.Lstat(t.Path); err == nil && fi.IsDir() {
			out = append(out, t)
		}
	}
	add(treeSpec{Path: filepath.Join(g.CommonDir, "objects")})
	dir, leaf := filepath.Split(filepath.FromSlash(g.Branch))
	for _, base := range []string{filepath.Join(g.CommonDir, "refs", "heads"), filepath.Join(g.CommonDir, "logs", "refs", "heads")} {
		d := filepath.Join(base, dir)
		t := treeSpec{Path: d, Mount: true}
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if n := e.Name(); n != leaf && n != leaf+".lock" {
				t.ReadOnly = append(t.ReadOnly, filepath.Join(d, n))
			}
		}
		add(t)
	}
	own := treeSpec{Path: g.GitDir, Mount: true}
	for _, n := range []string{"commondir", "gitdir", "config.worktree", "config"} {
		own.ReadOnly = append(own.ReadOnly, filepath.Join(g.GitDir, n))
	}
	add(own)
	return out
}
