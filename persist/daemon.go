package persist

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The store daemon (`pincer store-daemon`): the one process that opens a Badger
// directory, serving it to every other pincer process of the user over a Unix
// socket (a Server). It is started on demand by the first client (remote_start.go)
// and exits after an idle period in which no client was attached and no request
// in flight, or when its store directory disappears.

// DefaultIdle is how long a daemon with no clients waits before it exits.
const DefaultIdle = 5 * time.Minute

// DaemonFiles are the files of a store's daemon in a run directory.
type DaemonFiles struct {
	Socket string // the Unix socket, mode 0600
	Lock   string // flock taken while a daemon starts or exits
	Log    string // the daemon's stdout and stderr
	Token  string // the daemon's token (NewDaemonToken), mode 0600; "" is TokenFor(Socket)
}

// FilesFor names the daemon files of the store in storeDir, inside runDir: the
// names derive from the store's absolute path, so each store has its daemon.
func FilesFor(runDir, storeDir string) DaemonFiles {
	if abs, err := filepath.Abs(storeDir); err == nil {
		storeDir = abs
	}
	sum := sha256.Sum256([]byte(storeDir))
	base := filepath.Join(runDir, "store-"+hex.EncodeToString(sum[:6]))
	return DaemonFiles{Socket: base + ".sock", Lock: base + ".lock", Log: base + ".log", Token: base + ".token"}
}

// LockFor is the start-up lock of the daemon serving on socket: the socket's path
// with ".lock" in place of ".sock" (or appended).
func LockFor(socket string) string {
	return strings.TrimSuffix(socket, ".sock") + ".lock"
}

// DaemonConfig configures RunDaemon.
type DaemonConfig struct {
	StoreDir string      // the Badger directory (created if needed)
	Files    DaemonFiles // where to listen; Lock is taken to exit idle
	// Idle is how long the daemon waits with no client before it exits
	// (0: DefaultIdle).
	Idle time.Duration
	// Version is pincer's version, reported to clients.
	Version string
	// Options open the Badger store.
	Options BadgerOptions
	// OpenWait is how long to wait for a store another process still holds (a
	// daemon that is exiting); 0 is 3 s.
	OpenWait time.Duration
	// Ready, when set, is told "ok\n" once the daemon serves, or
	// "error: <one line>\n" when it cannot start; then it is closed.
	Ready io.WriteCloser
}

// RunDaemon opens the store, serves it on cfg.Files.Socket and returns when ctx
// ends, the daemon was idle for cfg.Idle, or the store directory was removed.
func RunDaemon(ctx context.Context, cfg DaemonConfig) error {
	if cfg.Idle <= 0 {
		cfg.Idle = DefaultIdle
	}
	ready := func(err error) {
		if cfg.Ready == nil {
			return
		}
		if err == nil {
			_, _ = io.WriteString(cfg.Ready, "ok\n")
		} else {
			_, _ = io.WriteString(cfg.Ready, "error: "+strings.ReplaceAll(err.Error(), "\n", " ")+"\n")
		}
		cfg.Ready.Close()
		cfg.Ready = nil
	}
	if cfg.OpenWait <= 0 {
		cfg.OpenWait = 3 * time.Second
	}
	store, err := openForDaemon(ctx, cfg.StoreDir, cfg.Options, cfg.OpenWait)
	if err != nil {
		ready(err)
		return err
	}
	storeGone := false
	defer func() {
		if !storeGone { // a removed directory cannot take the final flush: Close would retry forever
			closeWithin(store, closeTimeout)
		}
	}()
	if err := EnsureRunDir(filepath.Dir(cfg.Files.Socket)); err != nil {
		ready(err)
		return err
	}
	// This process holds the store, so a socket left at the path is stale.
	_ = os.Remove(cfg.Files.Socket)
	l, err := net.Listen("unix", cfg.Files.Socket)
	if err != nil {
		err = fmt.Errorf("persist: listen on %s: %w", cfg.Files.Socket, err)
		ready(err)
		return err
	}
	if err := os.Chmod(cfg.Files.Socket, 0o600); err != nil {
		l.Close()
		ready(err)
		return err
	}
	tokenPath := cfg.Files.Token
	if tokenPath == "" {
		tokenPath = TokenFor(cfg.Files.Socket)
	}
	token, err := NewDaemonToken(tokenPath)
	if err != nil {
		l.Close()
		ready(err)
		return err
	}
	srv := NewServer(store, cfg.Version, store.Dir())
	srv.RequireToken(token) // clients without it, or of another uid, are refused
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	ready(nil)

	tick := time.NewTicker(min(max(cfg.Idle/4, 10*time.Millisecond), time.Second))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			srv.Close()
			return nil
		case err := <-served:
			return err
		case <-tick.C:
		}
		if _, err := os.Stat(cfg.StoreDir); errors.Is(err, os.ErrNotExist) {
			srv.Close()
			storeGone = true
			return fmt.Errorf("persist: the store directory %s was removed", cfg.StoreDir)
		}
		if srv.IdleFor() < cfg.Idle {
			continue
		}
		// Exit under the start-up lock: a client that cannot connect meanwhile
		// waits for the lock, then starts a new daemon once this one let go.
		unlock, err := flockFile(ctx, cfg.Files.Lock, 100*time.Millisecond)
		if err != nil {
			continue
		}
		if srv.CloseIfIdle(cfg.Idle) {
			err := closeWithin(store, closeTimeout)
			unlock()
			return err
		}
		unlock()
	}
}

// openForDaemon opens the Badger store, waiting a little while another process
// holds it (a daemon that is exiting).
func openForDaemon(ctx context.Context, dir string, opts BadgerOptions, wait time.Duration) (*Badger, error) {
	deadline := time.Now().Add(wait)
	for {
		b, err := OpenBadgerWith(dir, opts)
		if err == nil || !errors.Is(err, ErrInUse) || time.Now().After(deadline) {
			return b, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// closeTimeout bounds closing the store on the way out. Badger retries a failed
// final flush forever (a full or vanished disk); its write-ahead log still holds
// every acknowledged write, which the next open replays.
const closeTimeout = 10 * time.Second

// closeWithin closes the store, giving up after d.
func closeWithin(b *Badger, d time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- b.Close() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		return fmt.Errorf("persist: closing the store took longer than %s; leaving it to recovery", d)
	}
}
