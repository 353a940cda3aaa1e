package sandbox

import (
	"fmt"
	"strings"
)

// Report says what this machine can enforce, and — from Executor.Report — what
// a policy gets less of than it asked for.
type Report struct {
	// LandlockABI is the kernel's Landlock ABI version; 0 when Landlock is
	// unavailable, and LandlockError says why.
	LandlockABI   int
	LandlockError string
	// NetNamespace reports whether commands can get a network namespace of their
	// own (Policy.Network false); NetNamespaceError says why not.
	NetNamespace      bool
	NetNamespaceError string
	// MountNamespace reports whether commands can get a mount namespace of their
	// own, where protected paths become read-only bind mounts;
	// MountNamespaceError says why not.
	MountNamespace      bool
	MountNamespaceError string
	// PIDNamespace reports whether commands can run in a PID namespace of
	// their own (the helper as its PID 1), which ends every process of a
	// command with the command; PIDNamespaceError says why not.
	PIDNamespace      bool
	PIDNamespaceError string
	// NamespacePidMax reports whether the PID namespace's own pid_max can be
	// set (Linux 6.14+): the process limit that binds root too.
	NamespacePidMax bool
	// UserNamespace is set when the namespaces above are created inside a user
	// namespace (pincer is not root, or root without CAP_SYS_ADMIN).
	UserNamespace bool
	// Rlimits reports whether CPU time and file size limits are applied.
	Rlimits bool
	// Degraded lists, for one Executor's policy, each thing the policy asked for
	// that this machine cannot give, and what happens instead. Probe leaves it
	// empty.
	Degraded []string
}

// String returns one line per capability, then one per degradation:
//
//	landlock: ABI 7
//	network namespace: yes
//	mount namespace: yes
//	pid namespace: yes (background processes end with their command; ...)
//	rlimits: yes (CPU time, file size, processes)
func (r Report) String() string {
	var b strings.Builder
	if r.LandlockABI > 0 {
		fmt.Fprintf(&b, "landlock: ABI %d\n", r.LandlockABI)
	} else {
		fmt.Fprintf(&b, "landlock: unavailable (%s)\n", orUnknown(r.LandlockError))
	}
	via := ""
	if r.UserNamespace {
		via = " (via a user namespace)"
	}
	if r.NetNamespace {
		fmt.Fprintf(&b, "network namespace: yes%s\n", via)
	} else {
		fmt.Fprintf(&b, "network namespace: no (%s)\n", orUnknown(r.NetNamespaceError))
	}
	if r.MountNamespace {
		fmt.Fprintf(&b, "mount namespace: yes%s\n", via)
	} else {
		fmt.Fprintf(&b, "mount namespace: no (%s)\n", orUnknown(r.MountNamespaceError))
	}
	if r.PIDNamespace {
		lim := "process limit: RLIMIT_NPROC only, which root ignores"
		if r.NamespacePidMax {
			lim = "process limit: the namespace's pid_max"
		}
		fmt.Fprintf(&b, "pid namespace: yes%s (background processes end with their command; %s)\n", via, lim)
	} else {
		fmt.Fprintf(&b, "pid namespace: no (%s)\n", orUnknown(r.PIDNamespaceError))
	}
	if r.Rlimits {
		b.WriteString("rlimits: yes (CPU time, file size, processes)\n")
	} else {
		b.WriteString("rlimits: no\n")
	}
	for _, d := range r.Degraded {
		fmt.Fprintf(&b, "degraded: %s\n", d)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// orUnknown returns s, or "unknown reason" when it is empty.
func orUnknown(s string) string {
	if s == "" {
		return "unknown reason"
	}
	return s
}
