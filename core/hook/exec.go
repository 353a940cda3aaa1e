package hook

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"pincer/sandbox"
)

const (
	// defaultKillGrace is the wait between SIGTERM to a hook's process group (at
	// timeout or cancellation) and SIGKILL to whatever is left of it. It also
	// bounds how long a finished hook's output pipes are waited for when a
	// background child still holds them.
	defaultKillGrace = time.Second
	// maxStream is how many bytes of a hook's stdout, and of its stderr, are kept.
	maxStream = 1 << 20
)

// errTimedOut is the cause of a hook context that hit the hook's timeout.
var errTimedOut = errors.New("hook timed out")

// execResult is what one hook process did.
type execResult struct {
	exit     int // exit status; 128+N for death by signal N; -1 when unknown
	stdout   string
	stderr   string
	timedOut bool
	canceled bool  // the caller's context ended first
	err      error // the process could not start
}

// shell returns the program hooks run under: bash when on PATH (Claude Code's hooks
// are written for bash), else /bin/sh.
func shell() string {
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return "/bin/sh"
}

// hookEnv is the parent's environment (as it is now, not when the Runner was
// built) without any secret variable (sandbox.WithoutSecrets: provider keys,
// tokens, passwords, pincer's own secrets), with CLAUDE_PROJECT_DIR and
// PINCER_PROJECT_DIR set to dir, replacing inherited values. A hook runs
// outside the sandbox, and a project's settings file may name it.
//
// With cacheDir set, the package managers' caches (npm and npx, uv and uvx,
// pip, Go, the XDG cache) are under it (sandbox.PrivateCacheEnv), replacing
// inherited values: the person's are writable by sandboxed commands, and a
// hook's `npx -y PKG@VER` ran a cached install a command had edited (red
// team r24c F2).
func hookEnv(dir, cacheDir string) []string {
	private := sandbox.PrivateCacheEnv(cacheDir, nil)
	var env []string
	for _, kv := range sandbox.WithoutSecrets(os.Environ()) {
		if strings.HasPrefix(kv, "CLAUDE_PROJECT_DIR=") || strings.HasPrefix(kv, "PINCER_PROJECT_DIR=") {
			continue
		}
		env = append(env, kv)
	}
	// PYTHONSAFEPATH (Python 3.11+): a hook's `python3 -c 'import json …'`
	// run in the project imported a json.py the model wrote there (red team
	// r24d F2); the current directory stays off sys.path.
	env = append(env, "CLAUDE_PROJECT_DIR="+dir, "PINCER_PROJECT_DIR="+dir, "PYTHONSAFEPATH=1")
	return append(env, private...) // later entries win (os/exec keeps the last of a key)
}

// exec runs one hook: command under the runner's shell in its own process
// group, stdin fed from in. At the timeout, or when ctx ends, the group gets
// SIGTERM and, killGrace later, SIGKILL, so children that ignore SIGTERM go too.
// A hook that exits on its own keeps any background children it deliberately
// left (Claude Code does not reap them either); only their hold on the output
// pipes is cut after killGrace.
func (r *Runner) exec(ctx context.Context, command string, timeout time.Duration, in []byte) execResult {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	runCtx, cancel := context.WithTimeoutCause(ctx, timeout, errTimedOut)
	defer cancel()

	var stdout, stderr capped
	cmd := exec.CommandContext(runCtx, r.shell, "-c", command)
	cmd.Dir = r.projectDir
	cmd.Env = hookEnv(r.projectDir, r.cacheDir)
	cmd.Stdin = bytes.NewReader(in)
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		// Setpgid with Pgid 0 makes the leader's pid the group id.
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	}
	cmd.WaitDelay = r.killGrace

	if err := cmd.Start(); err != nil {
		return execResult{exit: -1, err: err}
	}
	waitErr := cmd.Wait()
	res := execResult{exit: exitStatus(cmd.ProcessState), stdout: stdout.String(), stderr: stderr.String()}
	if runCtx.Err() != nil {
		// Killed, or about to be: nothing of the group may outlive the deadline.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if ctx.Err() != nil {
			res.canceled = true
		} else if errors.Is(context.Cause(runCtx), errTimedOut) {
			res.timedOut = true
		}
	}
	var exitErr *exec.ExitError
	if waitErr != nil && cmd.ProcessState == nil && !errors.As(waitErr, &exitErr) {
		res.err = waitErr
	}
	return res
}

// exitStatus maps a process state to a shell-style exit status.
func exitStatus(ps *os.ProcessState) int {
	if ps == nil {
		return -1
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// capped keeps the first maxStream bytes written to it and drops the rest; it
// never fails a write, so a chatty hook is not killed by SIGPIPE.
type capped struct {
	buf       bytes.Buffer
	truncated bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := maxStream - c.buf.Len(); room < len(p) {
		c.truncated = true
		if room > 0 {
			c.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return c.buf.Write(p)
}

func (c *capped) String() string {
	if c.truncated {
		return c.buf.String() + "\n[output truncated]"
	}
	return c.buf.String()
}
