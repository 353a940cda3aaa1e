package sandbox

import (
	"slices"
	"time"
)

// Defaults of a Policy's limits, used when the field is zero.
const (
	// DefaultCPUTimeLimit is the CPU time (RLIMIT_CPU) each process of a command
	// may use: SIGXCPU at the limit, SIGKILL a few seconds later.
	DefaultCPUTimeLimit = 10 * time.Minute
	// DefaultFileSizeLimit is the largest file (RLIMIT_FSIZE) a command may write;
	// a write past it fails and the writer gets SIGXFSZ.
	DefaultFileSizeLimit int64 = 1 << 30
)

// DefaultReadOnlyInWorkspace are the paths, relative to each workspace root, that
// commands may read but not change: git hooks (which would run outside the
// sandbox on the user's next commit) and pincer's own project settings.
var DefaultReadOnlyInWorkspace = []string{".git/hooks", ".pincer"}

// Policy says how commands are confined. The zero value runs commands with the
// environment allowlist, in their own session and process group, with the
// default rlimits and no OS sandbox (Enabled false).
//
// Network, WritableRoots, ReadOnlyInWorkspace, NoCacheRoots and RequireLandlock
// only matter when Enabled is set.
type Policy struct {
	// Enabled turns on the OS sandbox: Landlock (reads everywhere, writes only to
	// the workspace roots, the temp dirs, the toolchain caches and WritableRoots),
	// read-only protected paths, and — when Network is false — a network
	// namespace of its own.
	Enabled bool
	// WritableRoots are extra directories (or files) commands may change.
	WritableRoots []string
	// ReadOnlyInWorkspace are paths relative to each workspace root that stay
	// read-only. nil means DefaultReadOnlyInWorkspace; an empty, non-nil slice
	// protects nothing (and lets the whole workspace be written even where no
	// mount namespace is available).
	ReadOnlyInWorkspace []string
	// Network allows network access. When false, commands run in a new network
	// namespace with only a loopback device of their own.
	Network bool
	// EnvAllow names extra environment variables commands inherit from pincer's
	// environment, besides DefaultEnvAllow. A name ending in "*" is a prefix.
	EnvAllow []string
	// CPUTimeLimit bounds the CPU time of each process (RLIMIT_CPU, whole seconds,
	// at least one). Zero means DefaultCPUTimeLimit; negative means no limit.
	CPUTimeLimit time.Duration
	// FileSizeLimit bounds the size of any file a command writes (RLIMIT_FSIZE,
	// bytes). Zero means DefaultFileSizeLimit; negative means no limit.
	FileSizeLimit int64
	// RequireLandlock refuses to run commands when Landlock cannot be enforced on
	// this machine, instead of running them unconfined with a notice.
	RequireLandlock bool
	// NoCacheRoots keeps the toolchain caches (Go, npm, pip, cargo, the XDG cache
	// dir) read-only; by default they are writable so that builds and tests work.
	NoCacheRoots bool
}

// DefaultPolicy is the policy of a normal session: the OS sandbox on, network
// allowed, default limits and protected paths.
func DefaultPolicy() Policy {
	return Policy{Enabled: true, Network: true}
}

// readOnly returns the protected workspace-relative paths in effect.
func (p Policy) readOnly() []string {
	if p.ReadOnlyInWorkspace == nil {
		return slices.Clone(DefaultReadOnlyInWorkspace)
	}
	return slices.Clone(p.ReadOnlyInWorkspace)
}

// cpuSeconds returns the RLIMIT_CPU value in seconds, 0 meaning no limit.
func (p Policy) cpuSeconds() uint64 {
	d := p.CPUTimeLimit
	switch {
	case d == 0:
		d = DefaultCPUTimeLimit
	case d < 0:
		return 0
	}
	return max(uint64((d+time.Second-1)/time.Second), 1)
}

// fileSize returns the RLIMIT_FSIZE value in bytes, 0 meaning no limit.
func (p Policy) fileSize() int64 {
	switch {
	case p.FileSizeLimit == 0:
		return DefaultFileSizeLimit
	case p.FileSizeLimit < 0:
		return 0
	}
	return p.FileSizeLimit
}
