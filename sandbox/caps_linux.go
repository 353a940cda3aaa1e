package sandbox

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// dropCapabilities removes every capability from the bounding and
// inheritable sets of the calling thread, which must be the one that then
// calls execve or forks the command (the sets are per thread): the command —
// root's included — starts with no capability and can never get one back
// (no CAP_MKNOD for device nodes, no CAP_SYS_ADMIN for mounts or namespaces'
// setup, no CAP_DAC_OVERRIDE past file modes, no CAP_SYS_RESOURCE past
// rlimits). It also clears the ambient set, which a helper started in a user
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
