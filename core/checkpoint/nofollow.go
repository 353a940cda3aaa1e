package checkpoint

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"strings"

	"golang.org/x/sys/unix"

	"pincer/core/smallfile"
)

// A rewind's changes to the workspace go through directory file
// descriptors, never through names resolved again: each directory on a
// path is opened from the one before it (the root's, from the Recorder's
// os.Root) with openat(O_NOFOLLOW|O_DIRECTORY), and the last name is
// unlinked, created or renamed relative to its directory's descriptor. A
// symlink on the way is never traversed, even one that stays inside the
// root (os.Root follows those), and a symlink swapped in between a check
// and an operation changes nothing: there is no check by name.

// openParent opens the directory holding rel (workspace-relative,
// slash-separated, clean) without following a symlink, and returns its
// descriptor (the caller closes it) and rel's last name. create makes a
// missing directory on the way (mode 0755, as the workspace's files are
// made). A symlink on the way is a *LinkOnPathError; a directory absent (or
// a file where one is, create false) is fs.ErrNotExist.
func (r *Recorder) openParent(rel string, create bool) (int, string, error) {
	parts := strings.Split(rel, "/")
	for _, p := range parts {
		if p == "" || p == "." || p == ".." {
			return -1, "", errors.New("not a clean workspace-relative path")
		}
	}
	root, err := r.rootFD()
	if err != nil {
		return -1, "", err
	}
	defer unix.Close(root)
	var mkdir uint32
	if create {
		mkdir = 0o755
	}
	fd, failed, err := smallfile.WalkDirs(root, parts[:len(parts)-1], mkdir)
	if err != nil {
		if errors.Is(err, unix.ENOTDIR) && !create {
			err = fs.ErrNotExist // a file: nothing can be under it
		}
		return -1, "", onPath(strings.Join(parts[:failed+1], "/"), err)
	}
	return fd, parts[len(parts)-1], nil
}

// rootFD is a new descriptor of the workspace root (the Recorder's
// os.Root's directory, not its name resolved again).
func (r *Recorder) rootFD() (int, error) {
	f, err := r.rt.Open(".")
	if err != nil {
		return -1, err
	}
	defer f.Close()
	return unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0)
}

// onPath names the directory dir of a failed walk in its error.
func onPath(dir string, err error) error {
	switch {
	case errors.Is(err, smallfile.ErrLinkOnPath):
		return &LinkOnPathError{Dir: dir}
	case errors.Is(err, unix.ENOENT), errors.Is(err, fs.ErrNotExist):
		return fs.ErrNotExist
	}
	return &fs.PathError{Op: "open", Path: dir, Err: err}
}

// removeEntry unlinks the file or symlink at rel (never a directory, never
// through a symlink on the way). Absent already is no error.
func (r *Recorder) removeEntry(rel string) error {
	dfd, name, err := r.openParent(rel, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer unix.Close(dfd)
	if err := unix.Unlinkat(dfd, name, 0); err != nil && !errors.Is(err, unix.ENOENT) {
		return &fs.PathError{Op: "unlink", Path: rel, Err: err}
	}
	return nil
}

// removeDirIfEmpty removes the directory at rel when it is empty (rmdir
// decides, at the operation); one holding anything, absent or no longer a
// directory (a symlink: not followed) is left alone.
func (r *Recorder) removeDirIfEmpty(rel string) error {
	dfd, name, err := r.openParent(rel, false)
	var link *LinkOnPathError
	if errors.Is(err, fs.ErrNotExist) || errors.As(err, &link) {
		return nil
	}
	if err != nil {
		return err
	}
	defer unix.Close(dfd)
	err = unix.Unlinkat(dfd, name, unix.AT_REMOVEDIR)
	switch {
	case err == nil, errors.Is(err, unix.ENOENT), errors.Is(err, unix.ENOTEMPTY),
		errors.Is(err, unix.EEXIST), errors.Is(err, unix.ENOTDIR):
		return nil
	}
	return &fs.PathError{Op: "rmdir", Path: rel, Err: err}
}

// writeEntry puts content at rel with mode (a symlink: data is its target):
// directories on the way made, none followed; a new entry made next to rel
// (O_CREAT|O_EXCL|O_NOFOLLOW, or symlinkat) and renamed over whatever is at
// rel, so a file or symlink there is replaced, never written through.
func (r *Recorder) writeEntry(rel string, data []byte, mode fs.FileMode) error {
	dfd, name, err := r.openParent(rel, true)
	if err != nil {
		return err
	}
	defer unix.Close(dfd)
	tmp := ".pincer-rewind-" + name
	_ = unix.Unlinkat(dfd, tmp, 0)
	if mode&fs.ModeSymlink != 0 {
		err = unix.Symlinkat(string(data), dfd, tmp)
	} else {
		err = writeNew(dfd, tmp, data, uint32(mode.Perm()))
	}
	if err == nil {
		err = unix.Renameat(dfd, tmp, dfd, name)
	}
	if err != nil {
		_ = unix.Unlinkat(dfd, tmp, 0)
		return &fs.PathError{Op: "write", Path: path.Join(path.Dir(rel), tmp), Err: err}
	}
	return nil
}

// writeNew creates name in dirfd (it must not exist, a symlink there is
// not followed) holding data with permission bits perm (umask undone).
func writeNew(dirfd int, name string, data []byte, perm uint32) error {
	fd, err := unix.Openat(dirfd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, perm)
	if err != nil {
		return err
	}
	for len(data) > 0 && err == nil {
		var n int
		if n, err = unix.Write(fd, data); err == nil && n <= 0 {
			err = io.ErrShortWrite
		} else if n > 0 {
			data = data[n:]
		}
	}
	if err == nil {
		err = unix.Fchmod(fd, perm)
	}
	if cerr := unix.Close(fd); err == nil {
		err = cerr
	}
	return err
}
