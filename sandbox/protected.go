package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// expandProtected turns protected relative patterns (see ProtectedInWorkspace)
// into absolute, clean paths under root, whether they exist or not: plain
// entries as they are, "*" through the directory as it is now, and
// ".git/modules/**/X" as X inside every git dir found beneath .git/modules
// (submodules nest: .git/modules/a/modules/b). Entries that leave root are
// dropped.
func expandProtected(root string, rel []string) []string {
	var out []string
	add := func(p string) {
		if within(root, p) && p != root && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, r := range rel {
		r = strings.TrimSuffix(filepath.ToSlash(r), "/")
		switch {
		case strings.Contains(r, "**"):
			before, after, _ := strings.Cut(r, "**")
			base := filepath.Join(root, filepath.FromSlash(strings.TrimSuffix(before, "/")))
			tail := filepath.FromSlash(strings.TrimPrefix(after, "/"))
			for _, g := range gitDirsBelow(base, 0) {
				add(filepath.Join(g, tail))
			}
		case strings.ContainsAny(r, "*?["):
			m, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(r)))
			for _, p := range m {
				add(p)
			}
		default:
			add(filepath.Join(root, filepath.FromSlash(r)))
		}
	}
	return out
}

// gitDirsBelow returns the git directories (holding a HEAD) beneath dir, a
// submodules directory: a module's name may have slashes, and a module's git
// dir has a "modules" directory of its own for nested submodules.
func gitDirsBelow(dir string, depth int) []string {
	if depth > 8 {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if fi, err := os.Lstat(filepath.Join(p, "HEAD")); err == nil && fi.Mode().IsRegular() {
			out = append(out, p)
			out = append(out, gitDirsBelow(filepath.Join(p, "modules"), depth+1)...)
			continue
		}
		out = append(out, gitDirsBelow(p, depth+1)...)
	}
	return out
}

// guardState is what the protected paths of the workspace roots looked like
// before a command: which existed, and where each symlink among them pointed.
type guardState struct {
	roots   []string
	rel     []string
	rootRel map[string][]string // rel per root with its other git dirs (withGitDirs), as before the command
	existed map[string]bool
	links   map[string]string
	git     map[string]gitState // per root: its git dirs' symlinks, todo lists and .git files (gitstate.go)
}

// snapshotProtected records the state of the protected paths of roots (a
// handful of lstat calls per root), of each git dir's HEAD, which tells
// a repository the command creates from one that was there, and of the git
// dirs' state files (scanGitState).
func snapshotProtected(roots, rel []string) guardState {
	st := guardState{roots: roots, rel: rel, rootRel: map[string][]string{}, existed: map[string]bool{}, links: map[string]string{}, git: map[string]gitState{}}
	for _, root := range roots {
		dirs, dotGits := walkGitDirs(root)
		st.rootRel[root] = withGitDirsFrom(root, rel, dirs)
		if len(rel) > 0 {
			st.git[root] = scanGitState(root, dirs, dotGits)
		}
		heads := gitHeads(root)
		for _, d := range dirs {
			heads = append(heads, filepath.Join(d, "HEAD"))
		}
		for _, p := range append(append(expandProtected(root, st.rootRel[root]), heads...), filepath.Join(root, ".git")) {
			fi, err := os.Lstat(p)
			if err != nil {
				continue
			}
			st.existed[p] = true
			if fi.Mode()&fs.ModeSymlink != 0 {
				st.links[p], _ = os.Readlink(p)
			}
		}
	}
	return st
}

// gitHeads returns the HEAD files of root's git dir and its submodules' git dirs.
func gitHeads(root string) []string {
	out := []string{filepath.Join(root, ".git", "HEAD")}
	for _, g := range gitDirsBelow(filepath.Join(root, ".git", "modules"), 0) {
		out = append(out, filepath.Join(g, "HEAD"))
	}
	return out
}

// quarantine compares the protected paths with st after a command and moves
// each one the command created (or a symlink it replaced) into a new
// directory beneath qdir, restoring replaced symlinks. A git repository the
// command created itself (`git init`, `git clone`, a new submodule) keeps the
// config, hooks and info git writes: a config with only the keys git writes
// (gitInitKeys), hooks that are all "*.sample", an info dir with only
// "exclude". It returns one line per path, or "" when nothing was created.
func quarantine(st guardState, qdir string) string {
	var moved []string
	var box string
	for _, root := range st.roots {
		// A .git the command made that is not a directory (a gitfile or a
		// symlink naming a git dir elsewhere, with a config of its choosing).
		gitPath := filepath.Join(root, ".git")
		if fi, err := os.Lstat(gitPath); err == nil && !st.existed[gitPath] && !fi.IsDir() && len(st.rel) > 0 {
			if box == "" {
				box = newQuarantineBox(qdir)
			}
			moved = append(moved, movePath(gitPath, box, filepath.Join(filepath.Base(root), ".git")))
		}
		// The git dirs as they are now: one the command made (`git init
		// sub`, a planted sub/.git) has its config, hooks and info checked
		// as .git's (red team r17 F2).
		dirs, dotGits := walkGitDirs(root)
		rel := withGitDirsFrom(root, st.rel, dirs)
		for _, r := range st.rootRel[root] {
			if !slices.Contains(rel, r) {
				rel = append(rel, r)
			}
		}
		for _, p := range expandProtected(root, rel) {
			fi, err := os.Lstat(p)
			if err != nil {
				continue
			}
			if st.existed[p] {
				old, wasLink := st.links[p]
				if !wasLink {
					continue
				}
				if cur, err := os.Readlink(p); err == nil && cur == old {
					continue
				}
				// A protected symlink replaced (by a file, or a link elsewhere).
			} else if freshRepoFile(st, root, p, fi) {
				continue
			}
			if box == "" {
				box = newQuarantineBox(qdir)
			}
			rel, _ := filepath.Rel(root, p)
			moved = append(moved, movePath(p, box, filepath.Join(filepath.Base(root), rel)))
			if old, wasLink := st.links[p]; wasLink {
				_ = os.Symlink(old, p)
			}
		}
		if before, ok := st.git[root]; ok {
			for _, p := range gitStateChanges(before, scanGitState(root, dirs, dotGits), st.roots) {
				if box == "" {
					box = newQuarantineBox(qdir)
				}
				rel, _ := filepath.Rel(root, p)
				moved = append(moved, movePath(p, box, filepath.Join(filepath.Base(root), rel)))
			}
		}
	}
	if len(moved) == 0 {
		return ""
	}
	return "blocked: " + strings.Join(moved, "; ")
}

// newQuarantineBox returns a fresh directory beneath qdir (or the temp dir).
func newQuarantineBox(qdir string) string {
	if qdir == "" {
		qdir = filepath.Join(os.TempDir(), fmt.Sprintf("pincer-quarantine-%d", os.Getuid()))
	}
	_ = os.MkdirAll(qdir, 0o700)
	box, err := os.MkdirTemp(qdir, time.Now().UTC().Format("20060102T150405-"))
	if err != nil {
		return ""
	}
	return box
}

// movePath moves p to box/rel (renaming, else copying then removing) and
// says what happened.
func movePath(p, box, rel string) string {
	name := filepath.Base(p)
	if box != "" {
		dst := filepath.Join(box, rel)
		_ = os.MkdirAll(filepath.Dir(dst), 0o700)
		err := os.Rename(p, dst)
		if err != nil {
			if err = copyTree(p, dst); err == nil {
				err = os.RemoveAll(p)
			}
		}
		if err == nil {
			return fmt.Sprintf("the command created %s, a protected path; moved to %s", name, dst)
		}
	}
	if err := os.RemoveAll(p); err != nil {
		return fmt.Sprintf("the command created %s, a protected path, and it could not be removed: %v", p, err)
	}
	return fmt.Sprintf("the command created %s, a protected path; removed", name)
}

// copyTree copies src to dst: directories, regular files and symlinks (as
// links, never followed); other kinds are skipped.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o700)
		case d.Type()&fs.ModeSymlink != 0:
			l, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(l, target)
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(target, b, 0o600)
		}
		return nil
	})
}

// freshRepoFile reports whether p (new, with info fi) belongs to a git dir
// whose HEAD did not exist before the command, and holds only what git itself
// writes there.
func freshRepoFile(st guardState, root, p string, fi fs.FileInfo) bool {
	gitDir := filepath.Dir(p)
	if _, had := st.existed[filepath.Join(gitDir, "HEAD")]; had {
		return false
	}
	top := filepath.Join(root, ".git")
	if gitDir != top && !within(filepath.Join(top, "modules"), gitDir) && within(top, gitDir) {
		return false // a linked worktree's admin dir
	}
	if hfi, err := os.Lstat(filepath.Join(gitDir, "HEAD")); err != nil || !hfi.Mode().IsRegular() {
		return false
	}
	switch filepath.Base(p) {
	case "config":
		return fi.Mode().IsRegular() && safeGitConfig(p)
	case "hooks":
		return fi.IsDir() && onlyEntries(p, func(e fs.DirEntry) bool {
			return e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".sample")
		})
	case "info":
		return fi.IsDir() && onlyEntries(p, func(e fs.DirEntry) bool {
			return e.Type().IsRegular() && e.Name() == "exclude"
		})
	}
	return false
}

// onlyEntries reports whether every entry of dir satisfies ok.
func onlyEntries(dir string, ok func(fs.DirEntry) bool) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !ok(e) {
			return false
		}
	}
	return true
}

// gitInitKeys are the config keys git init, git clone and git submodule write
// (section.key or section.*.key, lower case), and the identity: none of them
// names a program.
var gitInitKeys = []string{
	"core.repositoryformatversion", "core.filemode", "core.bare", "core.logallrefupdates",
	"core.ignorecase", "core.precomposeunicode", "core.symlinks", "core.worktree",
	"extensions.objectformat", "init.defaultbranch",
	"remote.*.url", "remote.*.fetch", "branch.*.remote", "branch.*.merge",
	"submodule.*.url", "submodule.*.active", "user.name", "user.email",
}

// safeGitConfig reports whether the git config file at p sets only gitInitKeys
// (and includes no other file).
func safeGitConfig(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	section, sub := "", false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 || strings.TrimSpace(line[end+1:]) != "" {
				return false
			}
			head := strings.TrimSpace(line[1:end])
			name, rest, hasSub := strings.Cut(head, " ")
			if !hasSub {
				name, rest, hasSub = strings.Cut(head, ".")
			}
			section, sub = strings.ToLower(name), hasSub && strings.TrimSpace(rest) != ""
			continue
		}
		key, _, _ := strings.Cut(line, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		if strings.ContainsAny(key, " \t\\\"") || section == "" {
			return false
		}
		full := section + "." + key
		if sub {
			full = section + ".*." + key
		}
		if !slices.Contains(gitInitKeys, full) {
			return false
		}
	}
	return sc.Err() == nil && !errors.Is(sc.Err(), bufio.ErrTooLong)
}
