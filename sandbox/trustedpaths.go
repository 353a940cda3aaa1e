package sandbox

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// A pathGuard resolves the paths the sandbox takes from the person's
// environment and configuration — the toolchain caches, TMPDIR and /tmp,
// writable_roots, the PATH's directories, the git configuration files, the
// toolchain installations — refusing any whose resolution follows a symlink
// that a sandboxed command could have made: one lying in a directory inside
// a tree commands may write. Replacing GOCACHE (in the writable ~/.cache) with
// a link to $HOME would otherwise make the next command's writable trees
// include $HOME (red team r23 C1; C2: TMPDIR or a writable root under /tmp;
// C4: a PATH directory in the workspace; C7: a git excludes file in the
// workspace). A symlink in a directory no command can write (~/.cache itself
// a link, /lib to usr/lib) is the person's or the system's, and is followed.
type pathGuard struct {
	// writable are the trees commands may write, each resolved naively
	// (through every link): a superset of what the sandbox grants, so the
	// guard errs towards refusing.
	writable []string
}

// processRoots are the roots and added directories of every Workspace this
// process made: trees commands of some Executor of the process may write,
// whichever Executor plans. A worktree subagent's Executor does not have its
// parent's workspace among its trees, yet the parent's commands write there
// (a PATH directory in it swapped for a link, red team r24 F3).
var processRoots struct {
	mu    sync.Mutex
	paths []string
	seen  map[string]bool
}

// noteProcessRoot adds real (absolute, symlink-free) to processRoots.
func noteProcessRoot(real string) {
	processRoots.mu.Lock()
	defer processRoots.mu.Unlock()
	if processRoots.seen == nil {
		processRoots.seen = map[string]bool{}
	}
	if !processRoots.seen[real] {
		processRoots.seen[real] = true
		processRoots.paths = append(processRoots.paths, real)
	}
}

// processRootPaths returns processRoots' paths.
func processRootPaths() []string {
	processRoots.mu.Lock()
	defer processRoots.mu.Unlock()
	return slices.Clone(processRoots.paths)
}

// newPathGuard returns the guard over the writable trees at paths (absolute;
// each resolved through its links; those that do not resolve are left out)
// and processRoots.
func newPathGuard(paths []string) pathGuard {
	var g pathGuard
	g.writable = processRootPaths()
	for _, p := range paths {
		if real, err := filepath.EvalSymlinks(p); err == nil && filepath.IsAbs(real) {
			g.writable = append(g.writable, real)
		}
	}
	g.writable = dedupe(g.writable)
	return g
}

// resolve returns the absolute, symlink-free path abs names, which must
// exist. Its errors: abs is relative or missing, resolving needs more than 40
// symlinks, or a symlink on the way lies in a directory inside a writable tree
// (the error names the link and the tree).
func (g pathGuard) resolve(abs string) (string, error) {
	real, err := g.walk(abs)
	if err != nil {
		return "", err
	}
	if _, err := os.Lstat(real); err != nil {
		return "", err
	}
	return real, nil
}

// walk is resolve for a path that may not exist yet: its deepest existing
// ancestor resolved and the rest appended (resolveReal).
func (g pathGuard) walk(abs string) (string, error) {
	if !filepath.IsAbs(abs) {
		return "", fmt.Errorf("%s is not an absolute path", abs)
	}
	hops := 0
	return resolveRealVisit(filepath.Clean(abs), &hops, func(link, dir string) error {
		if w, ok := g.writableTree(dir); ok {
			return fmt.Errorf("%s is a symlink in %s, which sandboxed commands can write (so a command may have made it): not followed", link, w)
		}
		return nil
	})
}

// writableTree returns the writable tree p (absolute, symlink-free) lies in.
func (g pathGuard) writableTree(p string) (string, bool) {
	for _, w := range g.writable {
		if within(w, p) {
			return w, true
		}
	}
	return "", false
}

// linkFree returns an error naming the first of paths (absolute) one of whose
// components is a symlink or missing: the planned trees and read rules are
// symlink-free when the Executor plans a command, and the helper checks them
// again just before it mounts and applies Landlock (both of which follow
// links), so that a link a command put in their way since — a workspace
// under /tmp whose parent it renamed and replaced (red team r23 C3b), a cache
// it swapped — is refused instead of followed.
func linkFree(paths []string) error {
	for _, p := range paths {
		if err := componentsPlain(p); err != nil {
			return err
		}
	}
	return nil
}

// componentsPlain returns an error when a component of the absolute path p is
// a symlink (a missing one is not an error: the rules skip missing paths).
func componentsPlain(p string) error {
	cur := string(filepath.Separator)
	for _, part := range strings.Split(filepath.Clean(p), string(filepath.Separator)) {
		if part == "" {
			continue
		}
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if err != nil {
			return nil
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("sandbox: %s became a symlink after the command was planned (in the way of %s): refused", cur, p)
		}
	}
	return nil
}

// plannedPaths returns the paths of spec that must be symlink-free: each
// writable tree and, with ConfineReads, each read directory and file (the
// read-only paths inside a tree are bind-mounted as written and as resolved,
// see workspaceTree, and are not among them).
func plannedPaths(spec helperSpec) []string {
	out := treePaths(spec.Trees)
	if spec.ConfineReads {
		out = append(append(out, spec.ReadDirs...), spec.ReadFiles...)
	}
	return out
}
