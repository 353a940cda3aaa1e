// Package smallfile is the one reader of the small files pincer reads before
// it shows anything or for a command: the kept workbench layout, the trust
// record, and every file a repository (or the user) gives it — skills,
// commands, instruction files and their imports, plugins' files. Only a plain
// regular file on a real file system, only up to a size, never blocking. A FIFO
// (or a device, or a procfs file such as /proc/kmsg, which looks regular and
// blocks) put at such a path would otherwise hang the start — and a read of
// /proc/self/environ or a link to ~/.ssh/id_rsa would send secrets to the model.
// Place adds where a file may lead: inside the workspace for a project's file,
// never into a hidden location (credentials, pincer's own directories).
package smallfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// ErrRefused is wrapped by every error that refuses a file for what it is or
// where it leads (not a plain regular file, a kernel file system's, too long,
// a link out of its Place), as opposed to a missing or unreadable one: the
// caller warns about it (FILE: why).
var ErrRefused = errors.New("not read")

// Read returns the contents of the regular file at path, at most max bytes.
// The file is opened as Open does (O_NONBLOCK kept on the descriptor, fstat
// and fstatfs of the open descriptor), so the file checked is the file read
// and a read that would block is an error. A missing file is the os error
// (errors.Is fs.ErrNotExist); anything but a plain regular file, a file on a
// kernel file system (procfs, sysfs, ...), or a file longer than max bytes is
// an error naming it.
func Read(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCapped(f, path, max)
}

// readCapped reads at most max bytes of f, an error when there are more.
func readCapped(f *os.File, path string, max int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w: not read", path, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: larger than %d bytes: %w", path, max, ErrRefused)
	}
	return data, nil
}

// Open opens the regular file at path for reading: O_NONBLOCK (so opening a
// FIFO returns at once), then fstat and fstatfs of the descriptor: a path that
// is, or was swapped for, a FIFO, a device, a directory or a file of a kernel
// file system (KernelFS) is an error, not a read that blocks or leaks. The
// descriptor stays non-blocking (os.NewFile keeps it so), so a "regular" file
// whose read would wait returns EAGAIN instead. The caller closes the file.
func Open(path string) (*os.File, error) {
	return openFlags(path, 0)
}

// openFlags is Open with extra open flags (O_NOFOLLOW).
func openFlags(path string, extra int) (*os.File, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC|syscall.O_NOCTTY|extra, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	if err := checkFD(fd, path); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}

// checkFD refuses an open descriptor that is not a plain regular file on an
// ordinary file system.
func checkFD(fd int, path string) error {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return &os.PathError{Op: "fstat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return fmt.Errorf("%s: not a regular file (%s): %w", path, typeName(st.Mode), ErrRefused)
	}
	var fs syscall.Statfs_t
	if err := syscall.Fstatfs(fd, &fs); err != nil {
		return &os.PathError{Op: "fstatfs", Path: path, Err: err}
	}
	if name, ok := KernelFS(int64(fs.Type)); ok {
		return fmt.Errorf("%s: a file of the kernel's %s, not a file of the project: %w", path, name, ErrRefused)
	}
	return nil
}

// typeName names a file type from a stat mode.
func typeName(mode uint32) string {
	switch mode & syscall.S_IFMT {
	case syscall.S_IFIFO:
		return "a named pipe"
	case syscall.S_IFCHR:
		return "a character device"
	case syscall.S_IFBLK:
		return "a block device"
	case syscall.S_IFDIR:
		return "a directory"
	case syscall.S_IFSOCK:
		return "a socket"
	case syscall.S_IFLNK:
		return "a symbolic link"
	}
	return "not a plain file"
}

// kernelFS are the statfs magic numbers (linux/magic.h) of file systems whose
// files are the kernel's, not data: their "regular" files may block
// (/proc/kmsg), change with each read or hold the process's secrets
// (/proc/self/environ). devtmpfs shares tmpfs's number; its files are devices,
// refused by their type.
var kernelFS = map[int64]string{
	0x9fa0:     "procfs",
	0x62656572: "sysfs",
	0x64626720: "debugfs",
	0x74726163: "tracefs",
	0x73636673: "securityfs",
	0x0027e0eb: "cgroupfs",
	0x63677270: "cgroup2fs",
	0x62656570: "configfs",
	0xde5e81e4: "efivarfs",
	0xcafe4a11: "bpffs",
	0x6165676c: "pstorefs",
	0x65735543: "fusectl",
	0x42494e4d: "binfmt_misc",
	0x6e736673: "nsfs",
	0xf97cff8c: "selinuxfs",
	0x43415d53: "smackfs",
	0x00001cd1: "devpts",
	0x19800202: "mqueue",
	0x50495045: "pipefs",
	0x534f434b: "sockfs",
	0x09041934: "anon_inodefs",
	0x67596969: "rpc_pipefs",
	0x6e667364: "nfsd",
	0x00000187: "autofs",
}

// KernelFS reports whether magic (statfs's f_type) is a kernel file system's
// (procfs, sysfs, debugfs, ...), and its name.
func KernelFS(magic int64) (string, bool) {
	name, ok := kernelFS[magic&0xffffffff]
	return name, ok
}
