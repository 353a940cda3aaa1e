package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
)

// maxLinkHops bounds how many symlinks Resolve follows for one path, as the
// kernel's ELOOP limit does.
const maxLinkHops = 40

// Workspace is the directory tree the tools may read and change: a root, plus
// directories added with AddDir. It is safe for concurrent use.
type Workspace struct {
	root string

	mu   sync.RWMutex
	dirs []string // added roots: absolute, symlink-free, not inside root or each other
}

// NewWorkspace returns a workspace rooted at root, which is made absolute and has
// its symlinks resolved. It fails when root does not exist or is not a directory.
func NewWorkspace(root string) (*Workspace, error) {
	real, err := realDir(root)
	if err != nil {
		return nil, fmt.Errorf("workspace root %s: %w", root, err)
	}
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
	return nil
}

// Dirs returns the directories added with AddDir, in the order added.
func (w *Workspace) Dirs() []string {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return slices.Clone(w.dirs)
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
// root and every added directory, or when resolving needs more than 40 symlinks.
func (w *Workspace) Resolve(path string) (string, error) {
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
	if !w.Contains(real) {
		shown := filepath.Clean(abs)
		if shown != real {
			return "", fmt.Errorf("path %s resolves to %s, which is outside the workspace %s", path, real, w.root)
		}
		return "", fmt.Errorf("path %s is outside the workspace %s", path, w.root)
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
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = cur + string(filepath.Separator) + target
		}
		cur, err = resolveReal(target, hops)
		if err != nil {
			return "", err
		}
	}
	return cur, nil
}
