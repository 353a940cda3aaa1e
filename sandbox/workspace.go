package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// maxLinkHops bounds how many symlinks Resolve follows for one path, as the
// kernel's ELOOP limit does.
const maxLinkHops = 40

// Workspace is the directory tree the tools may read and change: a root, plus
// directories added with AddDir. It is safe for concurrent use.
type Workspace struct {
	root string

	mu    sync.RWMutex
	dirs  []string            // added roots: absolute, symlink-free, not inside root or each other
	asked []string            // every directory given to AddDir, resolved (GrantedDirs)
	roots map[string]*os.Root // opened lazily by rootOf, keyed by w.root or an added dir
	git   *GitShare           // ShareGit's: the main repository's git dir parts commands may write

	tainted atomic.Bool // TaintReads
	taint   taintHolds  // HoldUnconfined's running commands
}

// NewWorkspace returns a workspace rooted at root, which is made absolute and has
// its symlinks resolved. It fails when root does not exist or is not a directory.
func NewWorkspace(root string) (*Workspace, error) {
	real, err := realDir(root)
	if err != nil {
		return nil, fmt.Errorf("workspace root %s: %w", root, err)
	}
	noteProcessRoot(real)
	return &Workspace{root: real}, nil
}

// realDir returns path made absolute and symlink-free, or an error when it does
// not exist or is not a directory.
func realDir(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", errors.New("not a directory")
	}
	return real, nil
}

// Root returns the absolute, symlink-free path of the workspace root.
func (w *Workspace) Root() string { return w.root }

// AddDir allows path (an existing directory, as `--add-dir`) besides the root:
// Resolve accepts paths beneath it and an Executor lets commands write there. It
// is made absolute and symlink-free first. Adding a directory already allowed (the
// root, an added directory, or one beneath them) changes nothing; adding one
// that contains added directories replaces them. "/" is refused: it would allow
// everything.
func (w *Workspace) AddDir(path string) error {
	real, err := realDir(path)
	if err != nil {
		return fmt.Errorf("add dir %s: %w", path, err)
	}
	if real == string(filepath.Separator) {
		return fmt.Errorf("add dir %s: refusing to allow the whole file system", path)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !slices.Contains(w.asked, real) {
		w.asked = append(w.asked, real)
	}
	if within(w.root, real) {
		return nil
	}
	for _, d := range w.dirs {
		if within(d, real) {
			return nil
		}
	}
	w.dirs = slices.DeleteFunc(w.dirs, func(d string) bool { return within(real, d) })
	w.dirs = append(w.dirs, real)
	noteProcessRoot(real)
	return nil
}

// Dirs returns the directories added with AddDir, in the order added.
func (w *Workspace) Dirs() []string {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return slices.Clone(w.dirs)
}

// GrantedDirs returns every directory given to AddDir (absolute,
// symlink-free), also those inside the root or another added directory, in
// the order added: the sandbox keeps them visible inside a hidden directory
// (the session's spill directory in pincer's data directory), and the file
// tools reach into pincer's own directories only through them.
func (w *Workspace) GrantedDirs() []string {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return slices.Clone(w.asked)
}

// Roots returns the root followed by the added directories.
func (w *Workspace) Roots() []string {
	return append([]string{w.root}, w.Dirs()...)
}

// Abs returns path made absolute (relative paths are taken relative to the root)
// and lexically cleaned, without touching the file system or checking that it is
// inside the workspace. It is meant for display and for reporting a refused path.
func (w *Workspace) Abs(path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(w.root, path)
}

// Resolve returns the real location of path: absolute, clean, with every symlink
// resolved (for a path that does not exist yet, its deepest existing ancestor is
// resolved and the rest appended, following dangling links to where a write would
// land). Relative paths are relative to the root. It returns an error when the
// path is empty, when it (or the target of a symlink in it) lies outside the
// root and every added directory, when it lies in one of pincer's own
// directories (PincerDirs: config, data, run — also inside the workspace;
// existing or to be created; see OwnDirFor), or when resolving needs more
// than 40 symlinks.
func (w *Workspace) Resolve(path string) (string, error) {
	real, err := w.Real(path)
	if err != nil {
		return "", err
	}
	if !w.Contains(real) {
		shown := w.Abs(path)
		if shown != real {
			return "", fmt.Errorf("path %s resolves to %s, which is outside the workspace %s", path, real, w.root)
		}
		return "", fmt.Errorf("path %s is outside the workspace %s", path, w.root)
	}
	if err := w.ownDir(path, real); err != nil {
		return "", err
	}
	return real, nil
}

// InOwnDir reports whether the real path abs lies in one of pincer's own
// directories and is not reachable through the workspace on purpose
// (OwnDirFor with the roots and every directory given to AddDir), and which.
// A walk of the workspace (Glob) skips such a directory.
func (w *Workspace) InOwnDir(abs string) (dir string, ok bool) {
	return OwnDirFor(abs, append(w.Roots(), w.GrantedDirs()...))
}

// OwnDirCheck is InOwnDir with pincer's directories and the workspace's
// directories taken once, for a walk that asks for every entry.
func (w *Workspace) OwnDirCheck() func(abs string) (dir string, ok bool) {
	own, granted := ownDirsNow(), append(w.Roots(), w.GrantedDirs()...)
	return func(abs string) (string, bool) { return ownDirIn(abs, own, granted) }
}

// ownDir refuses real (the location path resolved to) when it lies in one of
// pincer's own directories (OwnDirFor), also where that directory lies inside
// the workspace: what is there (and what is created there) is for the person
// to write, never a tool. A directory of the workspace that itself lies in
// pincer's directory (the session's spill directory) stays reachable.
func (w *Workspace) ownDir(path, real string) error {
	if d, ok := w.InOwnDir(real); ok {
		return fmt.Errorf("path %s is in pincer's own directory %s (its configuration, approvals and secrets), which the file tools never read or write, as the sandbox hides it from commands", path, d)
	}
	return nil
}

// Real is Resolve without the workspace check: the real location of path
// (relative paths relative to the root), inside the workspace or not. It fails
// for an empty path, a NUL byte, or more than 40 symlinks. The permission
// layer is shown this location, so that a symlink leading out is judged by
// where it leads.
func (w *Workspace) Real(path string) (string, error) {
	if strings.TrimSpace(path) == "" {
		return "", errors.New("empty path")
	}
	if strings.ContainsRune(path, 0) {
		return "", fmt.Errorf("path %q contains a NUL byte", path)
	}
	abs := path
	if !filepath.IsAbs(abs) {
		abs = w.root + string(filepath.Separator) + path
	}
	hops := 0
	real, err := resolveReal(abs, &hops)
	if err != nil {
		return "", fmt.Errorf("path %s: %w", path, err)
	}
	return real, nil
}

// Contains reports whether the absolute, clean path abs is the root or an added
// directory, or lies beneath one. It does not resolve symlinks; use Resolve for
// untrusted paths.
func (w *Workspace) Contains(abs string) bool {
	if within(w.root, abs) {
		return true
	}
	w.mu.RLock()
	defer w.mu.RUnlock()
	for _, d := range w.dirs {
		if within(d, abs) {
			return true
		}
	}
	return false
}

// Rel returns abs relative to the root with forward slashes ("." for the root
// itself); a path outside the root (in an added directory, say) is returned
// unchanged.
func (w *Workspace) Rel(abs string) string {
	if !within(w.root, abs) {
		return abs
	}
	rel, err := filepath.Rel(w.root, abs)
	if err != nil {
		return abs
	}
	return filepath.ToSlash(rel)
}

// within reports whether path equals root or is beneath it (both absolute, clean).
func within(root, path string) bool {
	if path == root {
		return true
	}
	if root == string(filepath.Separator) {
		return strings.HasPrefix(path, root)
	}
	return strings.HasPrefix(path, root+string(filepath.Separator))
}

// resolveReal walks abs component by component from "/", following symlinks the
// way the kernel would (".." applies to the resolved directory). Once a component
// does not exist, the remaining components are appended as they are.
func resolveReal(abs string, hops *int) (string, error) {
	return resolveRealVisit(abs, hops, nil)
}

// resolveRealVisit is resolveReal calling visit (when not nil) with each
// symlink it follows (its path) and the symlink-free directory it lies in,
// before reading it; an error from visit ends the walk with that error.
func resolveRealVisit(abs string, hops *int, visit func(link, dir string) error) (string, error) {
	parts := strings.Split(abs, string(filepath.Separator))
	cur := string(filepath.Separator)
	for i, part := range parts {
		switch part {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, part)
		fi, err := os.Lstat(next)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				rest := append([]string{next}, parts[i+1:]...)
				return filepath.Join(rest...), nil
			}
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		*hops++
		if *hops > maxLinkHops {
			return "", errors.New("too many levels of symbolic links")
		}
		if visit != nil {
			if err := visit(next, cur); err != nil {
				return "", err
			}
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = cur + string(filepath.Separator) + target
		}
		cur, err = resolveRealVisit(target, hops, visit)
		if err != nil {
			return "", err
		}
	}
	return cur, nil
}

// The file operations below are the one way the file tools (Read, Write, Edit,
// Glob, Grep's Go search) and the workbench's diff preview touch files. Each
// goes through the os.Root of the workspace root or of the added directory
// that contains the path, so the kernel-level walk (openat, one component at a
// time) never leaves that directory: a symlink met on the way is followed only
// while it stays inside (and must be relative), and a directory swapped for a
// symlink to the outside between Resolve and the use fails instead of being
// followed — issue 10's check-then-use race. They take the path Resolve
// returned (absolute and symlink-free) or one relative to the root; a path
// that is not beneath the root or an added directory fails without touching
// the file system. Errors wrap the os errors (fs.ErrNotExist and the like),
// except that a path that escapes its root reads "... is outside the
// workspace ...".

// RootFor returns the os.Root of the workspace root or added directory that
// contains path (made absolute and clean, not resolved), and path relative to
// it ("." for the directory itself, slash-separated, as Root and its FS take
// names). The Root is shared and stays open for the workspace's life: callers
// must not close it. It fails for a path outside the workspace, and for one in
// pincer's own directories (see Resolve).
func (w *Workspace) RootFor(path string) (*os.Root, string, error) {
	if strings.ContainsRune(path, 0) {
		return nil, "", fmt.Errorf("path %q contains a NUL byte", path)
	}
	abs := w.Abs(path)
	base := ""
	if within(w.root, abs) {
		base = w.root
	} else {
		w.mu.RLock()
		for _, d := range w.dirs {
			if within(d, abs) {
				base = d
				break
			}
		}
		w.mu.RUnlock()
	}
	if base == "" {
		return nil, "", fmt.Errorf("path %s is outside the workspace %s", abs, w.root)
	}
	if err := w.ownDir(abs, abs); err != nil {
		return nil, "", err
	}
	r, err := w.rootOf(base)
	if err != nil {
		return nil, "", err
	}
	rel, err := filepath.Rel(base, abs)
	if err != nil {
		return nil, "", err
	}
	return r, filepath.ToSlash(rel), nil
}

// rootOf returns the open os.Root of base (w.root or an added directory),
// opening it the first time.
func (w *Workspace) rootOf(base string) (*os.Root, error) {
	w.mu.RLock()
	r := w.roots[base]
	w.mu.RUnlock()
	if r != nil {
		return r, nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if r := w.roots[base]; r != nil {
		return r, nil
	}
	r, err := os.OpenRoot(base)
	if err != nil {
		return nil, err
	}
	if w.roots == nil {
		w.roots = map[string]*os.Root{}
	}
	w.roots[base] = r
	return r, nil
}

// inRoot runs op on path's name inside its root and rewrites an escape (a
// symlink leading out, or swapped in) into the workspace's own wording.
func (w *Workspace) inRoot(path string, op func(r *os.Root, rel string) error) error {
	r, rel, err := w.RootFor(path)
	if err != nil {
		return err
	}
	if err := op(r, rel); err != nil {
		return w.escapeErr(path, err)
	}
	return nil
}

// escapeErr rewrites os.Root's "path escapes from parent" for path.
func (w *Workspace) escapeErr(path string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent",
		errors.As(err, &le) && le.Err != nil && le.Err.Error() == "path escapes from parent":
		return fmt.Errorf("path %s is outside the workspace %s (a symbolic link on the way leads out of it)", w.Abs(path), w.root)
	}
	return err
}

// Open opens path as os.OpenFile does (flag, perm), through the root that
// contains it.
func (w *Workspace) Open(path string, flag int, perm fs.FileMode) (*os.File, error) {
	var f *os.File
	err := w.inRoot(path, func(r *os.Root, rel string) (err error) {
		f, err = r.OpenFile(rel, flag, perm)
		return err
	})
	return f, err
}

// ReadFile returns the content of the file at path, read through its root.
func (w *Workspace) ReadFile(path string) ([]byte, error) {
	var b []byte
	err := w.inRoot(path, func(r *os.Root, rel string) (err error) {
		b, err = r.ReadFile(rel)
		return err
	})
	return b, err
}

// Stat is os.Stat through path's root (symlinks followed while inside).
func (w *Workspace) Stat(path string) (fs.FileInfo, error) {
	var fi fs.FileInfo
	err := w.inRoot(path, func(r *os.Root, rel string) (err error) {
		fi, err = r.Stat(rel)
		return err
	})
	return fi, err
}

// Lstat is os.Lstat through path's root: a final symlink is not followed.
func (w *Workspace) Lstat(path string) (fs.FileInfo, error) {
	var fi fs.FileInfo
	err := w.inRoot(path, func(r *os.Root, rel string) (err error) {
		fi, err = r.Lstat(rel)
		return err
	})
	return fi, err
}

// ReadDir is os.ReadDir through path's root: the directory's entries sorted
// by name.
func (w *Workspace) ReadDir(path string) ([]fs.DirEntry, error) {
	var entries []fs.DirEntry
	err := w.inRoot(path, func(r *os.Root, rel string) (err error) {
		entries, err = fs.ReadDir(r.FS(), rel)
		return err
	})
	return entries, err
}

// MkdirAll is os.MkdirAll through path's root.
func (w *Workspace) MkdirAll(path string, perm fs.FileMode) error {
	return w.inRoot(path, func(r *os.Root, rel string) error {
		if rel == "." {
			return nil
		}
		return r.MkdirAll(rel, perm)
	})
}

// HardLinked reports whether path names (without following a final symlink)
// a regular file with more than one hard link — a file that may also be
// reachable, under another name, from outside the workspace. It is false
// when the file does not exist or cannot be examined.
func (w *Workspace) HardLinked(path string) bool {
	fi, err := w.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && uint64(st.Nlink) > 1
}

// WriteFileAtomic replaces (or creates) the file at path with data: it writes
// a temporary file beside it (".NAME.pincer-RANDOM.tmp", created exclusively)
// and renames it over path, both through path's root. A reader sees the old
// content or the new, never a part; and the directory entry is replaced, not
// written through, so another hard link to the old file (one outside the
// workspace, say) keeps the old content. A replaced file keeps its permission
// bits; a new one gets perm through the umask. Ownership is the writer's. The
// parent directory must exist (MkdirAll). A path whose last component is a
// symlink is refused (pass the real path, as Resolve returns it). The data is
// not fsynced.
func (w *Workspace) WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	return w.inRoot(path, func(r *os.Root, rel string) error {
		if rel == "." {
			return errors.New("is the workspace directory")
		}
		dir, name := filepath.Split(filepath.FromSlash(rel))
		mode, keep := perm, false
		if fi, err := r.Lstat(rel); err == nil {
			switch {
			case fi.Mode().IsRegular():
				mode, keep = fi.Mode().Perm(), true
			case fi.Mode()&fs.ModeSymlink != 0:
				if _, err := r.Stat(rel); err != nil {
					return err // leads out (or dangles, or loops)
				}
				return errors.New("is a symbolic link: write the file it names (Resolve)")
			}
		}
		var rnd [6]byte
		_, _ = rand.Read(rnd[:])
		tmp := filepath.Join(dir, "."+name+".pincer-"+hex.EncodeToString(rnd[:])+".tmp")
		f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		if err == nil && keep {
			err = f.Chmod(mode) // exactly the old bits, whatever the umask
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = r.Rename(tmp, rel)
		}
		if err != nil {
			_ = r.Remove(tmp)
		}
		return err
	})
}
