package sandbox

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// keptCaps are the capabilities a command started by root keeps: those a
// default container runtime grants (file ownership and permission overrides,
// setuid/setgid, kill, chroot, raw sockets, low ports, mknod, audit writes).
// Everything else — mounting, loading modules, raw I/O, ptrace of others,
// network administration, changing the clock — is dropped.
var keptCaps = map[uintptr]bool{
	unix.CAP_CHOWN: true, unix.CAP_DAC_OVERRIDE: true, unix.CAP_FSETID: true,
	unix.CAP_FOWNER: true, unix.CAP_MKNOD: true, unix.CAP_NET_RAW: true,
	unix.CAP_SETGID: true, unix.CAP_SETUID: true, unix.CAP_SETFCAP: true,
	unix.CAP_SETPCAP: true, unix.CAP_NET_BIND_SERVICE: true, unix.CAP_SYS_CHROOT: true,
	unix.CAP_KILL: true, unix.CAP_AUDIT_WRITE: true,
}

// dropCapabilities removes the capabilities not in keptCaps from the bounding
// and inheritable sets of the calling thread, which must be the one that then
// calls execve (the sets are per thread): the executed command never gets them
// back. It also clears the ambient set, which a helper started in a user
// namespace uses for its mounts. Without CAP_SETPCAP (an unprivileged helper)
// the bounding set stays: such a helper's command gets no capabilities anyway
// (not root, no ambient ones, and no_new_privs ignores file capabilities).
func dropCapabilities() error {
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && err != unix.EINVAL {
		return fmt.Errorf("clearing ambient capabilities: %w", err)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("reading capabilities: %w", err)
	}
	canDrop := data[0].Effective&(1<<unix.CAP_SETPCAP) != 0
	last := lastCap()
	for c := uintptr(0); c <= last; c++ {
		if keptCaps[c] {
			continue
		}
		if canDrop {
			if err := unix.Prctl(unix.PR_CAPBSET_DROP, c, 0, 0, 0); err != nil && err != unix.EINVAL {
				return fmt.Errorf("dropping capability %d: %w", c, err)
			}
		}
		data[c/32].Inheritable &^= 1 << (c % 32)
	}
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("clearing inheritable capabilities: %w", err)
	}
	return nil
}

// lastCap returns the highest capability number the kernel knows.
func lastCap() uintptr {
	b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap")
	if err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && n > 0 {
			return uintptr(n)
		}
	}
	return unix.CAP_LAST_CAP
}
