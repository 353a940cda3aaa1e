package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Git directories under other names than .git (red team F1): a bare
// repository used as a local remote (remote.git), the git dir a `.git` file
// names (`git init --separate-git-dir`, a submodule or linked worktree's
// checkout), the one a `.git` symlink names (Android's repo tool:
// proj/.git -> ../.repo/projects/proj.git). Git runs what their config and
// hooks name as readily as .git's, so they get .git's protection: the
// ".git/..." entries of the protected paths are applied to each of them too.

// gitDirWalkDepth and gitDirWalkMax bound the discovery walk of one workspace
// root: directories at most this deep below the root, at most this many
// directories visited. A `.git` file or symlink met on the way adds the git
// dir it names wherever in the root that lies.
const (
	gitDirWalkDepth = 6
	gitDirWalkMax   = 20000
)

// IsGitDir reports whether dir is a git directory by git's own literal facts
// (setup.c is_git_directory): a HEAD entry, and objects/ and refs/ entries —
// or a commondir file, as a linked worktree's git dir has. Nothing is
// followed: each entry is looked at with lstat (a symlink counts as present,
// which errs on the protected side). The cost is one lstat for a directory
// without HEAD, at most four otherwise.
func IsGitDir(dir string) bool {
	fi, err := os.Lstat(filepath.Join(dir, "HEAD"))
	if err != nil || fi.IsDir() {
		return false
	}
	present := func(name string, wantDir bool) bool {
		fi, err := os.Lstat(filepath.Join(dir, name))
		if err != nil {
			return false
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return true
		}
		return fi.IsDir() == wantDir
	}
	return present("objects", true) && present("refs", true) || present("commondir", false)
}

// GitDirsIn returns the git directories inside root (absolute, clean, root
// symlink-free) other than root/.git and those beneath it: every directory
// IsGitDir accepts met by a walk bounded by gitDirWalkDepth and
// gitDirWalkMax that follows no symlink and does not descend into a git dir,
// plus the resolved git dir (and its commondir) each `.git` file ("gitdir:
// PATH") or symlink met names, when it lies inside root. Nested repositories'
// .git directories are among them.
func GitDirsIn(root string) []string {
	dirs, _ := walkGitDirs(root)
	return dirs
}

// walkGitDirs is GitDirsIn's walk: the git dirs, and the `.git` files and
// symlinks met (absolute paths, below root, root/.git excluded).
func walkGitDirs(root string) (out, dotGits []string) {
	add := func(d string) {
		if d != root && within(root, d) && !within(filepath.Join(root, ".git"), d) && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	visited := 0
	base := strings.Count(root, string(filepath.Separator))
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if d != nil && d.IsDir() && p != root {
				return fs.SkipDir
			}
			return nil
		}
		if p == root {
			return nil
		}
		if d.Name() == ".git" && !d.IsDir() {
			dotGits = append(dotGits, p)
			for _, g := range namedGitDirs(p) {
				add(g)
			}
			return nil
		}
		if !d.IsDir() {
			return nil
		}
		if p == filepath.Join(root, ".git") {
			return fs.SkipDir
		}
		if visited++; visited > gitDirWalkMax {
			return fs.SkipAll
		}
		if IsGitDir(p) {
			add(p)
			return fs.SkipDir
		}
		if strings.Count(p, string(filepath.Separator))-base >= gitDirWalkDepth {
			return fs.SkipDir
		}
		return nil
	})
	return out, dotGits
}

// namedGitDirs returns the git dir the `.git` file or symlink at p names,
// resolved, and the common dir its commondir file names; nothing when it
// names no git dir.
func namedGitDirs(p string) []string {
	fi, err := os.Lstat(p)
	if err != nil {
		return nil
	}
	var gd string
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		if gd, err = filepath.EvalSymlinks(p); err != nil {
			return nil
		}
	case fi.Mode().IsRegular():
		b, err := os.ReadFile(p)
		if err != nil || len(b) > 4096 {
			return nil
		}
		named, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
		if !ok {
			return nil
		}
		gd = strings.TrimSpace(named)
		if !filepath.IsAbs(gd) {
			gd = filepath.Join(filepath.Dir(p), gd)
		}
		if gd, err = filepath.EvalSymlinks(gd); err != nil {
			return nil
		}
	default:
		return nil
	}
	if !IsGitDir(gd) {
		return nil
	}
	out := []string{gd}
	if b, err := os.ReadFile(filepath.Join(gd, "commondir")); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gd, c)
		}
		if c, err = filepath.EvalSymlinks(c); err == nil && IsGitDir(c) {
			out = append(out, c)
		}
	}
	return out
}

// withGitDirs returns rel plus, for each git dir GitDirsIn finds in root,
// every ".git/..." entry of rel re-rooted at it (remote.git/config,
// remote.git/hooks/, gd/modules/**/config ...). Without a ".git/" entry in
// rel (a policy that protects no git configuration) it returns rel.
func withGitDirs(root string, rel []string) []string {
	return withGitDirsFrom(root, rel, GitDirsIn(root))
}

// withGitDirsFrom is withGitDirs with the git dirs of root found already
// (GitDirsIn, walkGitDirs).
func withGitDirsFrom(root string, rel, dirs []string) []string {
	var git []string
	for _, r := range rel {
		if s := filepath.ToSlash(r); strings.HasPrefix(s, ".git/") {
			git = append(git, s)
		}
	}
	if len(git) == 0 {
		return rel
	}
	out := slices.Clone(rel)
	for _, d := range dirs {
		rd, err := filepath.Rel(root, d)
		if err != nil || strings.ContainsAny(rd, "*?[") {
			continue
		}
		rd = filepath.ToSlash(rd)
		if rd == ".git" || strings.HasPrefix(rd, ".git/") || strings.Contains(rd, "/.git/") {
			continue // root's .git or inside a .git dir (its submodules: gitDirsBelow; a linked worktree's admin dir): .git's own protection and gitseal.go cover them, and pinning a path through them here re-exposed what the seal made read-only. A nested repository's own .git (sub/.git) is protected as .git is (red team r17 F2).
		}
		if rd == ".." || strings.HasPrefix(rd, "../") {
			continue // outside the root (a linked worktree's git dir in its main repository): gitseal.go seals that whole; pinning a path through it here would make it writable again
		}
		for _, g := range git {
			out = append(out, rd+strings.TrimPrefix(g, ".git"))
		}
	}
	return out
}
