package smallfile

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// ErrLinkOnPath is the error of OpenDirAt and WalkDirs for a symbolic link
// where a directory is expected: it is never traversed.
var ErrLinkOnPath = errors.New("a symlink on the path: refused")

// OpenDirAt opens the directory name in the directory dirfd without
// following a symbolic link (openat with O_NOFOLLOW|O_DIRECTORY) and returns
// its descriptor (the caller closes it). With mkdir non-zero a missing
// directory is made first with that mode (mkdirat; one made meanwhile by
// another process is used). A symlink there is ErrLinkOnPath; a file there is
// unix.ENOTDIR and a missing entry unix.ENOENT (both as the raw errno).
func OpenDirAt(dirfd int, name string, mkdir uint32) (int, error) {
	const flags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
	fd, err := unix.Openat(dirfd, name, flags, 0)
	if errors.Is(err, unix.ENOENT) && mkdir != 0 {
		if err = unix.Mkdirat(dirfd, name, mkdir); err == nil || errors.Is(err, unix.EEXIST) {
			fd, err = unix.Openat(dirfd, name, flags, 0)
		}
	}
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		var st unix.Stat_t
		if unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
			return -1, ErrLinkOnPath
		}
		return -1, unix.ENOTDIR
	}
	return fd, err
}

// WalkDirs opens names one below the other from the directory dirfd (left
// open: the caller still owns it) with OpenDirAt, each from the descriptor of
// the one before, so no name is resolved twice and a symlink swapped in
// anywhere on the way is refused rather than followed. It returns the last
// directory's descriptor (a new one, dirfd's duplicate for no names; the
// caller closes it). On failure failed is the index in names of the
// component that failed and err OpenDirAt's error; an empty name, "." or ".."
// fails too.
func WalkDirs(dirfd int, names []string, mkdir uint32) (fd, failed int, err error) {
	fd, err = unix.FcntlInt(uintptr(dirfd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return -1, 0, err
	}
	for i, name := range names {
		if name == "" || name == "." || name == ".." {
			unix.Close(fd)
			return -1, i, fmt.Errorf("%q is not a name below a directory", name)
		}
		next, err := OpenDirAt(fd, name, mkdir)
		unix.Close(fd)
		if err != nil {
			return -1, i, err
		}
		fd = next
	}
	return fd, -1, nil
}
