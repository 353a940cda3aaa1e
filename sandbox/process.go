package sandbox

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"
)

// Defaults for Command fields left zero.
const (
	// DefaultKillGrace is how long a process group gets between SIGTERM and SIGKILL,
	// and how long Run waits for the output pipe after the command's own process
	// has exited (a background grandchild may hold it open).
	DefaultKillGrace = 2 * time.Second
	// DefaultMaxOutput is how many bytes of combined output Run keeps: the first
	// and last half of it; the middle is dropped and counted in OmittedBytes.
	DefaultMaxOutput = 1 << 20
)

// errTimedOut is the cause of a run context that hit Command.Timeout.
var errTimedOut = errors.New("command timed out")

// Command is one process to run. Path is looked up in PATH when it has no slash.
type Command struct {
	Path string
	Args []string // arguments after the program name
	Dir  string   // working directory; "" means the current one
	// Env holds extra KEY=VALUE entries, applied after the allowlisted part of the
	// current environment and the non-interactive defaults (so they win).
	Env []string
	// EnvAllow names further variables of the current environment to pass on (see
	// CommandEnvAllow); secrets not named here or in the default lists never reach the
	// command.
	EnvAllow []string
	// Timeout bounds the run; zero means no limit other than ctx.
	Timeout time.Duration
	// KillGrace is the wait between SIGTERM and SIGKILL; zero means DefaultKillGrace.
	KillGrace time.Duration
	// MaxOutput is the number of output bytes kept; zero means DefaultMaxOutput.
	MaxOutput int
	// MaxProcesses, when > 0, bounds how many processes the command may have
	// at once under an Executor, tighter than the policy's (the smaller of
	// the two holds): a background shell's share of its Run's budget
	// (tools.ShellQuota). Run and Start without an Executor ignore it.
	MaxProcesses int
	// RequireProcessLimit makes an Executor refuse the command (an error,
	// nothing started) when the process bound cannot hold here: no PID
	// namespace of its own with its own pid_max (Linux 6.14+), and pincer
	// running as root, for whom the kernel ignores RLIMIT_NPROC.
	RequireProcessLimit bool

	// prepare, when set, adjusts the command just before it starts (the
	// Executor's namespaces and credentials).
	prepare func(*exec.Cmd)
	// stdin and stdout, when set, replace a started Process's /dev/null input
	// and output buffer (StartPiped: a language server's JSON-RPC pipes).
	stdin, stdout *os.File
}

// Result is what a finished command produced.
type Result struct {
	// Output is stdout and stderr interleaved as written, possibly with its middle
	// dropped (see OmittedBytes). It may end inside a UTF-8 sequence.
	Output string
	// OmittedBytes counts the output bytes dropped from the middle.
	OmittedBytes int64
	// ExitCode is the exit status, 128+N when the process died of signal N, or -1
	// when it is unknown.
	ExitCode int
	// TimedOut is set when Command.Timeout expired and the group was killed.
	TimedOut bool
	// Canceled is set when ctx ended before the command did.
	Canceled bool
	// Duration is the wall time from start to return.
	Duration time.Duration
	// Notice is set by an Executor, one line each: on the first command of
	// the process that runs with less confinement than its Policy asked for,
	// what is missing (see Report.Degraded); when the command created a
	// protected path, "blocked: the command created NAME, a protected path;
	// moved to DIR"; when it failed for lack of network (Network false),
	// NetworkHintText. It is empty otherwise.
	Notice string
}

// raceHelperEnv is what a race-detector build adds to every command's
// environment (race_env.go); nil in pincer.
var raceHelperEnv []string

// Run starts c in a session and process group of its own (Setsid: no
// controlling terminal) with stdin from /dev/null and the CommandEnv environment
// (an allowlist; git's helpers off, including those the repository around
// c.Dir configures: GitSafeEnvFor), and waits for it. On timeout or when ctx ends, the whole
// group gets SIGTERM and, KillGrace later, SIGKILL; Run then returns even if a
// grandchild still holds the output pipe. Stray members of the group left behind
// by a command that exited normally are killed too. A non-zero exit is reported in
// Result, not as an error; the error is for a command that could not start.
func Run(ctx context.Context, c Command) (Result, error) {
	grace, limit := c.killGrace(), c.maxOutput()
	runCtx, cancel := c.runContext(ctx)
	defer cancel()

	out := newHeadTail(limit)
	cmd := exec.CommandContext(runCtx, c.Path, c.Args...)
	cmd.Dir = c.Dir
	cmd.Env = runEnv(ctx, c)
	cmd.Stdout = out // Stdin stays nil: the child reads /dev/null.
	cmd.Stderr = out
	// A new session is also a new process group whose id is the leader's pid.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Cancel = func() error {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		return nil
	}
	// After ctx ends (or the process exits), wait at most this long for the group
	// to exit and the pipe to close; then exec closes the pipe and Wait returns.
	cmd.WaitDelay = grace

	if c.prepare != nil {
		c.prepare(cmd)
	}
	if hasPdeathsig(cmd) {
		// The parent-death signal fires when the thread that forked the child
		// exits, not the process: keep this goroutine on its thread until the
		// command is over, so that the thread lives exactly as long as needed.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}

	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Result{ExitCode: -1}, err
	}
	waitErr := cmd.Wait()
	// Whatever is left of the group (a process that ignored SIGTERM, a background
	// job of a command that exited) goes now.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)

	res := Result{
		ExitCode: exitCode(cmd.ProcessState),
		Duration: time.Since(start),
	}
	res.Output, res.OmittedBytes = out.result()
	switch {
	case errors.Is(context.Cause(runCtx), errTimedOut) && ctx.Err() == nil:
		res.TimedOut = true
	case ctx.Err() != nil:
		res.Canceled = true
	}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) && !errors.Is(waitErr, exec.ErrWaitDelay) && cmd.ProcessState == nil {
		return res, waitErr
	}
	return res, nil
}

// runEnv is the environment Run gives c: the allowlisted part of pincer's,
// the git part (GitSafeEnv) with the overrides for the helpers the repository
// around c.Dir configures (GitSafeEnvFor: one `git config` when there is a
// repository), then c.Env, then what a race-detector build adds.
func runEnv(ctx context.Context, c Command) []string {
	env := CommandEnvAllow(c.EnvAllow, append(GitSafeEnvFor(ctx, c.Dir), c.Env...)...)
	return append(env, raceHelperEnv...)
}

// exitCode maps a process state to a shell-style exit code.
func exitCode(ps *os.ProcessState) int {
	if ps == nil {
		return -1
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// killGrace is c.KillGrace, or DefaultKillGrace when unset.
func (c Command) killGrace() time.Duration {
	if c.KillGrace <= 0 {
		return DefaultKillGrace
	}
	return c.KillGrace
}

// maxOutput is c.MaxOutput, or DefaultMaxOutput when unset.
func (c Command) maxOutput() int {
	if c.MaxOutput <= 0 {
		return DefaultMaxOutput
	}
	return c.MaxOutput
}

// runContext is ctx bounded by c.Timeout (its cause errTimedOut), or ctx
// cancellable when there is none: what ends a foreground command.
func (c Command) runContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if c.Timeout > 0 {
		return context.WithTimeoutCause(ctx, c.Timeout, errTimedOut)
	}
	return context.WithCancel(ctx)
}
