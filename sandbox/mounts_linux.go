package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// This file is the mount-namespace side of the helper: in a mount namespace of
// its own, read-only paths inside a workspace are protected with read-only bind
// mounts, which (unlike Landlock rules) can make a hole in a writable tree.
//
// A bind mount alone is not enough: the directory holding it could be renamed
// away and a fresh one put in its place (`mv .git .git2; mkdir -p .git/hooks`).
// So every existing component from the tree root down to the protected path is
// "pinned" with a read-write bind mount of itself: a mount point cannot be
// renamed or removed (EBUSY). The mounts vanish with the namespace when the
// command ends; nothing changes outside it.

// makeMountsPrivate stops mounts made in this namespace from propagating back
// to the parent namespace (and the other way round).
func makeMountsPrivate() error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making mounts private: %w", err)
	}
	return nil
}

// protectWithMounts protects the read-only paths of the trees that allow it and
// returns the set of paths it took care of; the rest must be carved. A path is
// taken care of when it is now a read-only mount, or when it does not exist and
// cannot be created as a directory here because its parent does not exist
// either (the command could create it: a documented gap, accepted so that a
// workspace without .git keeps a writable root). Paths reached through a
// symlink are left to carving: the link itself could be replaced.
func protectWithMounts(trees []treeSpec) (map[string]bool, error) {
	handled := map[string]bool{}
	pinned := map[string]bool{}
	pin := func(p string) error {
		if pinned[p] {
			return nil
		}
		if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("pinning %s: %w", p, err)
		}
		pinned[p] = true
		return nil
	}
	for _, t := range trees {
		if !t.Mount {
			continue
		}
		for _, p := range t.ReadOnly {
			if handled[p] || !within(t.Path, p) || p == t.Path {
				continue
			}
			chain, missing, ok := componentChain(t.Path, p)
			if !ok {
				// The protected path itself a symlink (AGENTS.md -> CLAUDE.md):
				// its target is protected on its own, and the Executor puts
				// the link back if the command replaces it (see quarantine).
				// A symlink further up: carve.
				fi, err := os.Lstat(p)
				if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
					continue
				}
				pc, pm, pok := componentChain(t.Path, filepath.Dir(p))
				if !pok || pm {
					continue
				}
				for _, c := range pc {
					if err := pin(c); err != nil {
						return nil, err
					}
				}
				handled[p] = true
				continue
			}
			if missing && slices.Contains(t.MakeDirs, p) && len(chain) > 0 &&
				chain[len(chain)-1] == filepath.Dir(p) && isDir(filepath.Dir(p)) {
				if err := os.Mkdir(p, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
					return nil, fmt.Errorf("creating %s: %w", p, err)
				}
				chain, missing, ok = componentChain(t.Path, p)
				if !ok {
					continue
				}
			}
			last := len(chain)
			if !missing {
				last-- // the path itself gets a read-only mount, not a pin
			}
			for _, c := range chain[:last] {
				if err := pin(c); err != nil {
					return nil, err
				}
			}
			if !missing {
				if err := bindReadOnly(p); err != nil {
					return nil, err
				}
			}
			handled[p] = true
		}
	}
	return handled, nil
}

// componentChain returns the existing paths from root down to p (root first, p
// last when it exists), whether p is missing, and false when one of them is a
// symlink. The walk stops at the first missing component, and after a regular
// file (nothing can lie beneath it).
func componentChain(root, p string) (chain []string, missing, ok bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return nil, false, false
	}
	cur := root
	parts := append([]string{""}, strings.Split(rel, string(filepath.Separator))...)
	for i, part := range parts {
		if part != "" {
			cur = filepath.Join(cur, part)
		}
		fi, err := os.Lstat(cur)
		if err != nil {
			return chain, true, true
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, false, false
		}
		chain = append(chain, cur)
		if !fi.IsDir() && i < len(parts)-1 {
			return chain, true, true
		}
	}
	return chain, false, true
}

// isDir reports whether p is a directory (not following a final symlink).
func isDir(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}

// bindReadOnly bind-mounts p onto itself and makes that mount read-only,
// keeping the flags the kernel may lock (nosuid, nodev, noexec, atime) as they
// were on the mount p came from.
func bindReadOnly(p string) error {
	if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind-mounting %s: %w", p, err)
	}
	var st unix.Statfs_t
	if err := unix.Statfs(p, &st); err != nil {
		return fmt.Errorf("statfs %s: %w", p, err)
	}
	flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY)
	for _, f := range []struct{ st, ms uintptr }{
		{unix.ST_NOSUID, unix.MS_NOSUID},
		{unix.ST_NODEV, unix.MS_NODEV},
		{unix.ST_NOEXEC, unix.MS_NOEXEC},
		{unix.ST_NOATIME, unix.MS_NOATIME},
		{unix.ST_NODIRATIME, unix.MS_NODIRATIME},
		{unix.ST_RELATIME, unix.MS_RELATIME},
	} {
		if uintptr(st.Flags)&f.st != 0 {
			flags |= f.ms
		}
	}
	if err := unix.Mount("", p, "", flags, ""); err != nil {
		return fmt.Errorf("making %s read-only: %w", p, err)
	}
	return nil
}

// loopbackUp brings up the loopback device of a fresh network namespace, so
// that servers a command starts on 127.0.0.1 (tests with httptest, say) are
// reachable from within it.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("loopback: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return fmt.Errorf("loopback: %w", err)
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("loopback: reading flags: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("loopback: bringing it up: %w", err)
	}
	return nil
}

// hidePaths covers each existing path of hidden, in order: a directory with an
// empty read-only tmpfs, anything else (a file, a socket) with a read-only bind
// of /dev/null. A symlink is followed: its target is covered. The directories
// of Pin are pinned first, each once (see hiddenPath), and each directory of Keep is
// cloned (open_tree) before the tmpfs goes on, then moved back in at its place
// (on mount points made in the still-writable tmpfs) before the tmpfs is made
// read-only: the hidden directory is hidden whole, and nothing can be created
// in it, wherever it lies. Mounts made here are locked for any user namespace
// the command creates later, so it cannot unmount them to look beneath.
func hidePaths(hidden []hiddenPath) error {
	// Each directory is pinned once, outer ones first, before anything is
	// covered: a recursive bind copies the mounts beneath it, so pinning one
	// again for every hidden path would multiply them.
	var pins []string
	for _, hp := range hidden {
		pins = append(pins, hp.Pin...)
	}
	pins = dedupe(pins)
	slices.SortStableFunc(pins, func(a, b string) int { return len(a) - len(b) })
	for _, d := range pins {
		if err := unix.Mount(d, d, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			if errors.Is(err, unix.ENOENT) {
				continue // gone since it was listed: what it held is gone with it (a rename is SECURITY.md's listed-name limit)
			}
			return fmt.Errorf("pinning %s: %w", d, err)
		}
	}
	for _, hp := range hidden {
		p := hp.Path
		fi, err := os.Stat(p)
		if err != nil {
			continue // nothing there to hide
		}
		if !fi.IsDir() {
			if err := unix.Mount("/dev/null", p, "", unix.MS_BIND, ""); err != nil {
				if errors.Is(err, unix.ENOENT) {
					continue // removed between the Stat and the mount: nothing there to hide
				}
				return fmt.Errorf("hiding %s: %w", p, err)
			}
			if err := unix.Mount("", p, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NOEXEC, ""); err != nil {
				return fmt.Errorf("hiding %s: %w", p, err)
			}
			continue
		}
		if len(hp.Keep) == 0 {
			if err := unix.Mount("tmpfs", p, "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=4k,mode=0700"); err != nil {
				return fmt.Errorf("hiding %s: %w", p, err)
			}
			continue
		}
		if err := hideKeeping(p, hp.Keep); err != nil {
			return err
		}
	}
	return nil
}

// hideKeeping covers the directory p with an empty tmpfs in which only the
// directories keep (inside p) are bound back, then makes it read-only.
func hideKeeping(p string, keep []string) error {
	var fds []int
	defer func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	}()
	for _, k := range keep {
		fd, err := unix.OpenTree(unix.AT_FDCWD, k, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
		if err != nil {
			return fmt.Errorf("hiding %s around %s (open_tree, Linux 5.2+): %w", p, k, err)
		}
		fds = append(fds, fd)
	}
	if err := unix.Mount("tmpfs", p, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=64k,mode=0700"); err != nil {
		return fmt.Errorf("hiding %s: %w", p, err)
	}
	for i, k := range keep {
		if err := os.MkdirAll(k, 0o700); err != nil {
			return fmt.Errorf("hiding %s: making room for %s: %w", p, k, err)
		}
		if err := unix.MoveMount(fds[i], "", unix.AT_FDCWD, k, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
			return fmt.Errorf("hiding %s: putting %s back: %w", p, k, err)
		}
	}
	if err := unix.Mount("", p, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("making %s read-only: %w", p, err)
	}
	return nil
}

// mountProc mounts a /proc of the helper's own PID namespace over /proc, so
// that the command sees only the processes of its namespace (and cannot reach
// other processes' /proc/PID/root, which would bypass the mounts above).
func mountProc() error {
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mounting /proc: %w", err)
	}
	return nil
}

// setNamespacePidMax writes the PID namespace's own pid_max (Linux 6.14+), so
// that at most n processes can exist in it at once — the process limit that
// also binds root, for whom the kernel ignores RLIMIT_NPROC.
func setNamespacePidMax(n int) error {
	// pid_max counts pid numbers, 1 (the helper) included; the kernel's
	// minimum is 301.
	v := max(n+1, 301)
	if err := os.WriteFile("/proc/sys/kernel/pid_max", []byte(strconv.Itoa(v)), 0); err != nil {
		return fmt.Errorf("setting pid_max: %w", err)
	}
	return nil
}
