package daemon

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"pincer/persist/remote"
)

// Starting the daemon on demand (Starter, Connect). A client that cannot connect takes an exclusive
// flock on the lock file, tries once more (another process may just have started
// one), removes a stale socket (nobody listens on it: its daemon is dead), and
// starts the daemon detached, waiting until it reports that it serves. Processes
// racing to start one serialise on the lock, so exactly one daemon starts. The
// daemon itself takes the lock while it exits idle, so it never exits under a
// client that just found it.

// StartOptions say how a client starts the daemon when none answers.
type StartOptions struct {
	// Files are the daemon's files: it serves on Files.Socket; Files.Lock
	// ("" is LockFor(Socket)) is flocked while a daemon is being started, so
	// that processes racing to start one end with exactly one; Files.Log
	// ("": /dev/null) receives its stdout and stderr; Files.Token ("" is
	// remote.TokenFor(Socket)) is where the client reads its token.
	Files Files
	// Command starts the daemon (argv, e.g. pincer store-daemon ...). It is run
	// detached (its own session, stdin from /dev/null, stdout and stderr to
	// Files.Log) and must write "ok\n" (or "error: <one line>\n") on file
	// descriptor 3 (its --ready-fd) when it serves (or cannot).
	Command []string
	// Env is added to the daemon's environment (which keeps only what
	// daemonEnv lets through of this process's).
	Env []string
	// StartTimeout bounds how long a start waits for the daemon (default 10 s).
	StartTimeout time.Duration
}

// withDefaults fills the defaults of StartOptions in.
func (o StartOptions) withDefaults() StartOptions {
	if o.Files.Lock == "" {
		o.Files.Lock = LockFor(o.Files.Socket)
	}
	if o.Files.Token == "" {
		o.Files.Token = remote.TokenFor(o.Files.Socket)
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = 10 * time.Second
	}
	return o
}

// Starter returns the remote.Options.Start of a client that starts the daemon
// with opts when none answers (see the top of this file).
func Starter(opts StartOptions) func(ctx context.Context) error {
	opts = opts.withDefaults()
	return func(ctx context.Context) error { return startDaemon(ctx, opts) }
}

// Connect returns a client of the daemon serving on opts.Files.Socket,
// starting the daemon (opts.Command) first when none answers there and again
// whenever it goes away. With a daemon running it costs one connect.
func Connect(ctx context.Context, opts StartOptions) (*remote.Client, error) {
	opts = opts.withDefaults()
	return remote.Open(ctx, remote.Options{Socket: opts.Files.Socket, Token: opts.Files.Token,
		Start: Starter(opts)})
}

// EnsureRunDir creates dir (mode 0700) for the daemon's socket, or checks that an
// existing one belongs to this user and is private (fixing its mode if needed).
func EnsureRunDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("daemon: create %s: %w", dir, err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || (ok && int(st.Uid) != os.Getuid()) {
		return fmt.Errorf("daemon: %s is not a directory of this user: refusing to put the store socket there", dir)
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("daemon: make %s private: %w", dir, err)
		}
	}
	return nil
}

// flockFile takes an exclusive flock on path, waiting until ctx ends or timeout.
// The returned function releases it.
func flockFile(ctx context.Context, path string, timeout time.Duration) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("daemon: open lock %s: %w", path, err)
	}
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fmt.Errorf("daemon: lock %s: %w", path, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("daemon: %s stayed locked for %s (a store daemon starting or exiting?)", path, timeout)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// startDaemon starts the daemon under the start-up lock (see above).
func startDaemon(ctx context.Context, opts StartOptions) error {
	if err := EnsureRunDir(filepath.Dir(opts.Files.Socket)); err != nil {
		return err
	}
	unlock, err := flockFile(ctx, opts.Files.Lock, opts.StartTimeout)
	if err != nil {
		return err
	}
	defer unlock()
	if remote.CanDial(opts.Files.Socket) {
		return nil // another process started it meanwhile
	}
	if err := os.Remove(opts.Files.Socket); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("daemon: remove stale socket: %w", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	cmd := exec.Command(opts.Command[0], opts.Command[1:]...)
	cmd.Env = append(daemonEnv(os.Environ()), opts.Env...)
	cmd.Dir = "/"                  // hold no project directory
	cmd.ExtraFiles = []*os.File{w} // fd 3
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if opts.Files.Log != "" {
		flags := os.O_CREATE | os.O_WRONLY | os.O_APPEND
		if fi, err := os.Stat(opts.Files.Log); err == nil && fi.Size() > maxLog {
			flags |= os.O_TRUNC
		}
		logf, err := os.OpenFile(opts.Files.Log, flags, 0o600)
		if err != nil {
			w.Close()
			return fmt.Errorf("daemon: open daemon log: %w", err)
		}
		defer logf.Close()
		cmd.Stdout, cmd.Stderr = logf, logf
	}
	err = cmd.Start()
	w.Close()
	if err != nil {
		return fmt.Errorf("daemon: start the store daemon: %w", err)
	}
	go func() { _ = cmd.Wait() }() // reap it if it exits while this process lives
	_ = r.SetReadDeadline(time.Now().Add(opts.StartTimeout))
	stop := context.AfterFunc(ctx, func() { _ = r.SetReadDeadline(time.Now()) })
	defer stop()
	line, rerr := bufio.NewReader(r).ReadString('\n')
	line = strings.TrimSpace(line)
	switch {
	case line == "ok":
		return nil
	case strings.HasPrefix(line, "error: "):
		return errors.New(strings.TrimPrefix(line, "error: "))
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(rerr, os.ErrDeadlineExceeded):
		return fmt.Errorf("the store daemon did not start within %s%s", opts.StartTimeout, seeLog(opts.Files.Log))
	}
	return fmt.Errorf("the store daemon exited before it served%s", seeLog(opts.Files.Log))
}

// daemonEnv keeps, of a client's environment, what the daemon may need: no API
// key or other secret of the client reaches the long-lived daemon.
func daemonEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "XDG_"), strings.HasPrefix(k, "LC_"):
		case k == "HOME", k == "USER", k == "LOGNAME", k == "PATH", k == "TMPDIR", k == "LANG", k == "TZ",
			k == "PINCER_HOME", k == "GOCOVERDIR", k == "GORACE":
		default:
			continue
		}
		out = append(out, kv)
	}
	return out
}

// maxLog is the size past which the daemon's log is started afresh.
const maxLog = 1 << 20

func seeLog(path string) string {
	if path == "" {
		return ""
	}
	return " (see " + path + ")"
}
