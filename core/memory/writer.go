package memory

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"pincer/core/smallfile"
)

// place is where one file is written: an anchor directory (pincer's config
// dir, the parent of the project's memory dir, the workspace root) that is
// opened as it is, and the components below it, each opened without
// following a symlink — a symlink planted anywhere below the anchor (the
// memory dir, a skill's dir, the file itself) makes the write fail, never
// lead elsewhere.
type place struct {
	anchor string
	rel    []string // directories, then the file name
}

// path is the place as one absolute path (a candidate's Target).
func (p place) path() string { return filepath.Join(append([]string{p.anchor}, p.rel...)...) }

// file is the file's name.
func (p place) file() string { return p.rel[len(p.rel)-1] }

// openDir opens the anchor and walks to the file's directory, creating what
// is missing (0700), refusing a component that is a symlink or not a
// directory. The caller closes the fd.
func (p place) openDir() (int, error) {
	if err := os.MkdirAll(p.anchor, 0o700); err != nil {
		return -1, err
	}
	anchor, err := unix.Open(p.anchor, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, &os.PathError{Op: "open", Path: p.anchor, Err: err}
	}
	defer unix.Close(anchor)
	dirs := p.rel[:len(p.rel)-1]
	fd, failed, err := smallfile.WalkDirs(anchor, dirs, 0o700)
	if err != nil {
		at := filepath.Join(append([]string{p.anchor}, dirs[:failed+1]...)...)
		if errors.Is(err, smallfile.ErrLinkOnPath) || errors.Is(err, unix.ENOTDIR) {
			err = fmt.Errorf("%w (a symlink or not a directory: refused)", err)
		}
		return -1, &os.PathError{Op: "open", Path: at, Err: err}
	}
	return fd, nil
}

// locked runs fn with the file's directory open (fd) and locked (flock,
// exclusive) against other pincer processes writing there.
func (p place) locked(fn func(dirfd int) error) error {
	fd, err := p.openDir()
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	if err := unix.Flock(fd, unix.LOCK_EX); err != nil {
		return &os.PathError{Op: "lock", Path: filepath.Dir(p.path()), Err: err}
	}
	defer unix.Flock(fd, unix.LOCK_UN)
	return fn(fd)
}

// readAt reads name in dirfd without following a symlink (not there: "",
// nil), at most MaxContentBytes*4.
func readAt(dirfd int, name string) (string, error) {
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if errors.Is(err, unix.ENOENT) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("open %s: %w (a symlink: refused)", name, err)
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", name)
	}
	data, err := io.ReadAll(io.LimitReader(f, 4*MaxContentBytes+1))
	if err != nil {
		return "", err
	}
	if len(data) > 4*MaxContentBytes {
		return "", fmt.Errorf("%s is larger than %d bytes", name, 4*MaxContentBytes)
	}
	return string(data), nil
}

// writeAt replaces name in dirfd with data atomically: a new temp file
// (O_EXCL, never through a symlink) written and synced, then renamed over
// name (a rename replaces a symlink, never follows it), then the directory
// synced. A crash leaves the old file or the new one, never half of one.
func writeAt(dirfd int, name, data string) error {
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := "." + name + ".tmp-" + hex.EncodeToString(rnd[:])
	fd, err := unix.Openat(dirfd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return fmt.Errorf("create %s: %w", tmp, err)
	}
	f := os.NewFile(uintptr(fd), tmp)
	_, werr := io.WriteString(f, data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = unix.Renameat(dirfd, tmp, dirfd, name)
	}
	if werr != nil {
		_ = unix.Unlinkat(dirfd, tmp, 0)
		return fmt.Errorf("write %s: %w", name, werr)
	}
	return unix.Fsync(dirfd)
}

// removeAt deletes name in dirfd (a symlink itself, never its target; not
// there is no error).
func removeAt(dirfd int, name string) error {
	if err := unix.Unlinkat(dirfd, name, 0); err != nil && !errors.Is(err, unix.ENOENT) {
		return fmt.Errorf("remove %s: %w", name, err)
	}
	return unix.Fsync(dirfd)
}

// cleanTemps removes the temp files a crashed writeAt left in dirfd's
// directory (".NAME.md.tmp-*").
func cleanTemps(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, ".") && strings.Contains(n, ".md.tmp-") {
			_ = os.Remove(filepath.Join(dir, n))
		}
	}
}

// lstat is os.Lstat (a symlink is itself).
func lstat(path string) (os.FileInfo, error) { return os.Lstat(path) }

// isNotExist reports whether err says a file is not there.
func isNotExist(err error) bool { return errors.Is(err, os.ErrNotExist) || errors.Is(err, unix.ENOENT) }
