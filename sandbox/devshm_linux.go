package sandbox

import (
	"fmt"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// devShm is the host's shared-memory directory (POSIX shm_open and sem_open
// objects: python's multiprocessing, browsers, databases).
const devShm = "/dev/shm"

// privateDevShm mounts an empty tmpfs of the command's own on /dev/shm (as
// bubblewrap's --dev does), in the helper's mount namespace: the command
// keeps working shared memory (mode 1777, nosuid, nodev) but neither sees
// nor changes the host's, whose objects other programs of the person keep
// there. It is a no-op when /dev/shm is not a directory, and when a writable
// tree lies within it (TMPDIR=/dev/shm/x: covering it would hide the tree).
// It runs after hidePaths, so the paths hidden below /dev/shm (a bound
// socket) lie under the empty tmpfs.
func privateDevShm(trees []treeSpec) error {
	p, err := filepath.EvalSymlinks(devShm)
	if err != nil || !isDir(p) {
		return nil
	}
	for _, t := range trees {
		if within(p, t.Path) {
			return nil
		}
	}
	if err := unix.Mount("tmpfs", p, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
		return fmt.Errorf("mounting a private %s: %w", devShm, err)
	}
	return nil
}
