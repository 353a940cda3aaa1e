package tools

import (
	"fmt"
	"sync"
)

// RunShellProcesses is how many processes all the background shells of one
// Run may have together: MaxRunningShells shells of RunShellProcesses /
// MaxRunningShells (512) processes each, a quarter of Linux's default
// pid_max (32768), so that no number of sessions, subagents and team
// members can exhaust the host's process table through background shells.
const RunShellProcesses = 8192

// minShellProcesses is the smallest process bound a shell can be given: the
// kernel's minimum pid_max (301) less the shell's helper (PID 1).
const minShellProcesses = 300

// ShellQuota is the background-shell budget of one Run — every session,
// subagent and team member of the process shares it (core/app makes one per
// Run and hands it to every agent it builds): at most MaxShells shells
// running at once, each held to PerShell processes (the sandbox gives it a
// PID namespace whose own pid_max is that, sandbox.Command.MaxProcesses), so
// that all of them together have at most MaxShells × PerShell. Safe for
// concurrent use.
type ShellQuota struct {
	maxShells, perShell int

	mu      sync.Mutex
	running int
}

// NewShellQuota returns a quota of maxShells running shells sharing
// processes processes evenly (each at least 300, the kernel's smallest
// pid_max, so processes is raised to that times maxShells when lower).
// Values below 1 mean MaxRunningShells and RunShellProcesses.
func NewShellQuota(maxShells, processes int) *ShellQuota {
	if maxShells < 1 {
		maxShells = MaxRunningShells
	}
	if processes < 1 {
		processes = RunShellProcesses
	}
	return &ShellQuota{maxShells: maxShells, perShell: max(processes/maxShells, minShellProcesses)}
}

// MaxShells is how many shells may run at once.
func (q *ShellQuota) MaxShells() int { return q.maxShells }

// PerShell is the process bound of each shell.
func (q *ShellQuota) PerShell() int { return q.perShell }

// Running is how many shells hold a slot now.
func (q *ShellQuota) Running() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.running
}

// take reserves a slot for one shell, or fails with what the model reads
// when all are taken; release (idempotent) gives it back when the shell has
// ended or did not start.
func (q *ShellQuota) take() (release func(), err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.running >= q.maxShells {
		return nil, fmt.Errorf("%d background shells are running already in this pincer process (all its sessions, subagents and team members together; at most %d, each of at most %d processes): end one with KillShell first, or wait for one to exit", q.running, q.maxShells, q.perShell)
	}
	q.running++
	var once sync.Once
	return func() {
		once.Do(func() {
			q.mu.Lock()
			q.running--
			q.mu.Unlock()
		})
	}, nil
}
