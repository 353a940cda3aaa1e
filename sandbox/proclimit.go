package sandbox

import (
	"errors"
	"os"
)

// ProcessLimitUnavailable is the error of a command with
// Command.RequireProcessLimit where its process bound cannot hold.
const ProcessLimitUnavailable = "the sandbox cannot bound this command's processes here: it has no PID namespace with a pid_max of its own (Linux 6.14+, and a mount namespace), and pincer runs as root, for whom the kernel ignores RLIMIT_NPROC; background shells are refused"

// errProcessLimit is ProcessLimitUnavailable as an error.
var errProcessLimit = errors.New(ProcessLimitUnavailable)

// processLimitHolds reports whether a command run under p is held to its
// MaxProcesses: by its PID namespace's own pid_max (counting only its own
// processes), or — for a user other than root — by RLIMIT_NPROC (which
// counts every process of the user, so it bounds the user's total).
func (p execPlan) processLimitHolds() bool {
	if p.direct {
		return false
	}
	if p.spec.PidNS && p.report.NamespacePidMax {
		return true
	}
	return os.Geteuid() != 0
}
