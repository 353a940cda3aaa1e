package sandbox

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// cpuHardGrace is how long past the CPU soft limit (SIGXCPU, which a process may
// catch) the hard limit (SIGKILL) comes.
const cpuHardGrace = 5

// applyRlimits lowers RLIMIT_CPU to cpuSeconds (soft; hard a few seconds later)
// RLIMIT_FSIZE to fileSize bytes and RLIMIT_NPROC to maxProcs, for the helper
// and so for everything it executes. RLIMIT_NPROC counts all processes of the
// uid (also those outside the sandbox) and the kernel never applies it to
// root; the PID namespace's pid_max (setNamespacePidMax) is what bounds root. Zero leaves a limit alone; a limit is never raised above its current
// hard value.
func applyRlimits(cpuSeconds uint64, fileSize int64, maxProcs int) error {
	if cpuSeconds > 0 {
		if err := lowerRlimit(unix.RLIMIT_CPU, cpuSeconds, cpuSeconds+cpuHardGrace); err != nil {
			return fmt.Errorf("setting the CPU time limit: %w", err)
		}
	}
	if fileSize > 0 {
		if err := lowerRlimit(unix.RLIMIT_FSIZE, uint64(fileSize), uint64(fileSize)); err != nil {
			return fmt.Errorf("setting the file size limit: %w", err)
		}
	}
	if maxProcs > 0 {
		if err := lowerRlimit(unix.RLIMIT_NPROC, uint64(maxProcs), uint64(maxProcs)); err != nil {
			return fmt.Errorf("setting the process limit: %w", err)
		}
	}
	return nil
}

// lowerRlimit sets resource to soft/hard, each capped at the current hard limit.
func lowerRlimit(resource int, soft, hard uint64) error {
	var cur unix.Rlimit
	if err := unix.Getrlimit(resource, &cur); err != nil {
		return err
	}
	lim := unix.Rlimit{Cur: min(soft, cur.Max), Max: min(hard, cur.Max)}
	return unix.Setrlimit(resource, &lim)
}
