package persist

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Starting the daemon on demand. A client that cannot connect takes an exclusive
// flock on the lock file, tries once more (another process may just have started
// one), removes a stale socket (nobody listens on it: its daemon is dead), and
// starts the daemon detached, waiting until it reports that it serves. Processes
// racing to start one serialise on the lock, so exactly one daemon starts. The
// daemon itself takes the lock while it exits idle, so it never exits under a
// client that just found it.

// ensureDaemon makes sure a daemon answers on the socket, starting one if needed.
func (c *Client) ensureDaemon(ctx context.Context) error {
	c.startMu.Lock()
	defer c.startMu.Unlock()
	if canDial(c.opts.Socket) {
		return nil
	}
	if len(c.opts.Command) == 0 {
		return fmt.Errorf("no store daemon answers on %s", c.opts.Socket)
	}
	return startDaemon(ctx, c.opts)
}

// canDial reports whether something accepts connections on the socket.
func canDial(socket string) bool {
	conn, err := net.DialTimeout("unix", socket, time.Second)
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// EnsureRunDir creates dir (mode 0700) for the daemon's socket, or checks that an
// existing one belongs to this user and is private (fixing its mode if needed).
func EnsureRunDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("persist: create %s: %w", dir, err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("persist: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || (ok && int(st.Uid) != os.Getuid()) {
		return fmt.Errorf("persist: %s is not a directory of this user: refusing to put the store socket there", dir)
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("persist: make %s private: %w", dir, err)
		}
	}
	return nil
}

// flockFile takes an exclusive flock on path, waiting until ctx ends or timeout.
// The returned function releases it.
func flockFile(ctx context.Context, path string, timeout time.Duration) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("persist: open lock %s: %w", path, err)
	}
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fmt.Errorf("persist: lock %s: %w", path, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("persist: %s stayed locked for %s (a store daemon starting or exiting?)", path, timeout)
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
func startDaemon(ctx context.Context, opts RemoteOptions) error {
	if err := EnsureRunDir(filepath.Dir(opts.Socket)); err != nil {
		return err
	}
	unlock, err := flockFile(ctx, opts.Lock, opts.StartTimeout)
	if err != nil {
		return err
	}
	defer unlock()
	if canDial(opts.Socket) {
		return nil // another process started it meanwhile
	}
	if err := os.Remove(opts.Socket); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("persist: remove stale socket: %w", err)
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
	if opts.Log != "" {
		flags := os.O_CREATE | os.O_WRONLY | os.O_APPEND
		if fi, err := os.Stat(opts.Log); err == nil && fi.Size() > maxLog {
			flags |= os.O_TRUNC
		}
		logf, err := os.OpenFile(opts.Log, flags, 0o600)
		if err != nil {
			w.Close()
			return fmt.Errorf("persist: open daemon log: %w", err)
		}
		defer logf.Close()
		cmd.Stdout, cmd.Stderr = logf, logf
	}
	err = cmd.Start()
	w.Close()
	if err != nil {
		return fmt.Errorf("persist: start the store daemon: %w", err)
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
		return fmt.Errorf("the store daemon did not start within %s%s", opts.StartTimeout, seeLog(opts.Log))
	}
	return fmt.Errorf("the store daemon exited before it served%s", seeLog(opts.Log))
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
