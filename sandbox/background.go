package sandbox

import (
	"context"
	"errors"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Process is a command started without waiting for it (Start,
// Executor.Start): a background shell, the one sanctioned exception to "a
// call's processes end with it". It runs in its own session and process group
// — and, under an Executor's policy, in the same sandbox a foreground command
// gets (the helper, its PID namespace when available, Landlock, rlimits, the
// environment allowlist) — with no timeout. Its output (stdout and stderr
// interleaved) goes to a TailBuffer. It ends when its command exits, when
// Kill ends it (the whole process group, and with the helper its whole PID
// namespace), or when pincer dies: the kernel's parent-death signal kills the
// helper when the thread that started it ends, and that thread ends with
// pincer at the latest (it stays locked to the process's waiting goroutine).
// A Process is safe for concurrent use.
type Process struct {
	pid     int
	out     *TailBuffer
	grace   time.Duration
	started time.Time
	done    chan struct{}
	// guard, when set, quarantines protected paths created since the start
	// (see Executor.Start) and returns the notice, "" when none.
	guard func() string

	mu       sync.Mutex
	res      Result
	killed   bool
	notices  []string
	guardMu  sync.Mutex // one quarantine pass at a time
	exitHook []func(Result)
}

// Start starts c in a session and process group of its own, as Run does
// (stdin from /dev/null, the CommandEnv allowlist), and returns once it is
// running. c.Timeout is ignored (a background process has none); c.MaxOutput
// is the number of output bytes kept (zero: DefaultBackgroundOutput), the
// most recent ones; c.KillGrace is Kill's wait between SIGTERM and SIGKILL.
// ctx only bounds the setup (the git lookup of the environment): the process
// outlives it. It fails when the command cannot be started.
func Start(ctx context.Context, c Command) (*Process, error) {
	return start(ctx, c, nil, nil)
}

// Start starts c under the policy without waiting for it, as Run runs it
// (the same helper, namespaces, Landlock, rlimits and environment), and
// returns the running Process. The protected paths are checked when the
// process ends (and on Process.CheckProtected): one the command created
// since its start is moved to the quarantine directory and reported in
// Result.Notice. It fails as Run does, without starting anything.
func (e *Executor) Start(ctx context.Context, c Command) (*Process, error) {
	p, err := e.plan()
	if err != nil {
		return nil, err
	}
	c.EnvAllow = append(slices.Clone(e.Policy.EnvAllow), c.EnvAllow...)
	var notes []string
	if n := announce(p.report.Degraded); n != "" {
		notes = append(notes, n)
	}
	if p.direct {
		if c.RequireProcessLimit {
			return nil, errProcessLimit
		}
		return start(ctx, c, nil, notes)
	}
	wrapped, err := e.wrap(p, c)
	if err != nil {
		return nil, err
	}
	var guard func() string
	if p.guard && e.Workspace != nil {
		before := snapshotProtected(e.Workspace.Roots(), e.Policy.readOnly())
		qdir := e.Policy.QuarantineDir
		if qdir == "" {
			qdir = DefaultQuarantineDir()
		}
		guard = func() string { return quarantine(before, qdir) }
	}
	return start(ctx, wrapped, guard, notes)
}

// start is Start with an optional guard and the start's notices (set before
// the process's goroutine reads them).
func start(ctx context.Context, c Command, guard func() string, notes []string) (*Process, error) {
	grace := c.killGrace()
	out := NewTailBuffer(c.MaxOutput)
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Dir = c.Dir
	cmd.Env = CommandEnvAllow(c.EnvAllow, append(GitSafeEnvFor(ctx, c.Dir), c.Env...)...)
	cmd.Env = append(cmd.Env, raceHelperEnv...) // race builds only: race_env.go
	cmd.Stdout = out
	cmd.Stderr = out
	if c.stdin != nil {
		cmd.Stdin = c.stdin
	}
	if c.stdout != nil {
		cmd.Stdout = c.stdout
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	// Once the command's own process has exited, a grandchild still holding
	// the output pipe (possible only without a PID namespace) delays the end
	// by at most this long.
	cmd.WaitDelay = grace
	if c.prepare != nil {
		c.prepare(cmd)
	}
	setPdeathsig(cmd)
	p := &Process{out: out, grace: grace, done: make(chan struct{}), guard: guard, notices: notes}
	started := make(chan error, 1)
	go p.run(cmd, started)
	if err := <-started; err != nil {
		return nil, err
	}
	return p, nil
}

// run starts cmd and waits for it on one locked OS thread: the thread that
// forked the helper is what its parent-death signal watches, so it must live
// exactly as long as the process.
func (p *Process) run(cmd *exec.Cmd, started chan<- error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p.started = time.Now()
	if err := cmd.Start(); err != nil {
		started <- err
		return
	}
	p.pid = cmd.Process.Pid
	started <- nil
	waitErr := cmd.Wait()
	// Whatever is left of the group goes with the command.
	_ = syscall.Kill(-p.pid, syscall.SIGKILL)
	res := Result{ExitCode: exitCode(cmd.ProcessState), Duration: time.Since(p.started)}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) && !errors.Is(waitErr, exec.ErrWaitDelay) && cmd.ProcessState == nil {
		res.ExitCode = -1
	}
	res.Output, res.OmittedBytes = p.tail()
	notes := p.takeNotices()
	if n := p.CheckProtected(); n != "" {
		notes = append(notes, n)
	}
	p.mu.Lock()
	res.Canceled = p.killed
	res.Notice = joinLines(notes)
	p.mu.Unlock()
	p.finish(res)
}

// afterHooksTaken, when set (tests only), runs in finish once the hooks are
// taken, where a concurrent OnExit must not get lost.
var afterHooksTaken func()

// finish records res, marks the process ended and calls the OnExit hooks.
// done is closed under p.mu, with the hooks taken: an OnExit from then on
// sees the end and calls its f itself, one before it is in the list taken,
// so no hook is lost between the two.
func (p *Process) finish(res Result) {
	p.mu.Lock()
	p.res = res
	close(p.done)
	hooks := p.exitHook
	p.exitHook = nil
	p.mu.Unlock()
	if afterHooksTaken != nil {
		afterHooksTaken()
	}
	for _, h := range hooks {
		h(res)
	}
}

// tail returns the kept output and how many earlier bytes were dropped.
func (p *Process) tail() (string, int64) {
	b, _, dropped := p.out.ReadSince(0)
	return string(b), dropped
}

// takeNotices returns the notices gathered at the start and clears them.
func (p *Process) takeNotices() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := p.notices
	p.notices = nil
	return n
}

// Notice returns the start's notice (the sandbox's degradations not
// announced before in this process), once: later calls return "".
func (p *Process) Notice() string { return joinLines(p.takeNotices()) }

// Pid is the process id of the process pincer started (the helper, under an
// Executor): the leader of its process group.
func (p *Process) Pid() int { return p.pid }

// Output is the buffer the process writes its output to.
func (p *Process) Output() *TailBuffer { return p.out }

// Done is closed once the process has ended and Wait's result is known.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exited reports whether the process has ended, and then its result.
func (p *Process) Exited() (Result, bool) {
	select {
	case <-p.done:
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.res, true
	default:
		return Result{}, false
	}
}

// Wait waits for the process to end and returns its result: ExitCode (128+N
// for signal N, -1 when unknown), Canceled when Kill ended it, Duration, the
// kept tail of the output with OmittedBytes before it, and Notice (the
// sandbox's degradations when not read by Notice, and the quarantine of
// protected paths the command created).
func (p *Process) Wait() Result {
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.res
}

// OnExit arranges for f to be called with the result once the process has
// ended (at once, on this goroutine, when it already has); f runs on the
// process's waiting goroutine and must not block for long.
func (p *Process) OnExit(f func(Result)) {
	p.mu.Lock()
	select {
	case <-p.done:
		res := p.res
		p.mu.Unlock()
		f(res)
		return
	default:
	}
	p.exitHook = append(p.exitHook, f)
	p.mu.Unlock()
}

// Kill ends the process: SIGTERM to its whole process group, then, when it
// is still running KillGrace later, SIGKILL (which ends the helper, and with
// it every process of its PID namespace). It returns once the process has
// ended, with its result; killing an ended process only returns its result.
func (p *Process) Kill() Result {
	select {
	case <-p.done:
		return p.Wait()
	default:
	}
	p.mu.Lock()
	p.killed = true
	p.mu.Unlock()
	_ = syscall.Kill(-p.pid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(p.grace):
		_ = syscall.Kill(-p.pid, syscall.SIGKILL)
	}
	return p.Wait()
}

// CheckProtected moves the protected paths the command created since it
// started to the quarantine directory (as Run does after a foreground
// command) and returns the notice, "" when there were none or no guard
// applies. It runs by itself when the process ends; a caller may run it
// while the process runs (each reading of its output) so that nothing it
// creates stays in place until then.
func (p *Process) CheckProtected() string {
	if p.guard == nil {
		return ""
	}
	p.guardMu.Lock()
	defer p.guardMu.Unlock()
	return p.guard()
}

// joinLines joins the non-empty notes with newlines.
func joinLines(notes []string) string {
	var out []string
	for _, n := range notes {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "\n")
}
