// Package daemon is the store daemon (`pincer store-daemon`, hidden): the one
// process that opens a Badger directory (persist/badger), serving it to every
// other pincer process of the user over a Unix socket (a persist/remote
// Server). Clients start it on demand (Starter, Connect: detached, exactly one
// when several race, under a lock file); it exits after an idle period with no
// client attached and no request in flight, or when its store directory
// disappears. Main is the entry the hidden command calls. Its files (socket,
// lock, log, token) are named per store (FilesFor) in a private run directory.
package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"pincer/persist"
	"pincer/persist/badger"
	"pincer/persist/remote"
)

// Config configures Run.
type Config struct {
	StoreDir string // the Badger directory (created if needed)
	Files    Files  // where to listen; Lock is taken to exit idle
	// Idle is how long the daemon waits with no client before it exits
	// (0: DefaultIdle).
	Idle time.Duration
	// SuspendAfter is how long the daemon waits with no client before it
	// suspends the store (closes Badger until the next request; 0:
	// DefaultSuspendAfter; negative: never).
	SuspendAfter time.Duration
	// Version is pincer's version, reported to clients.
	Version string
	// Options open the Badger store.
	Options badger.Options
	// OpenWait is how long to wait for a store another process still holds (a
	// daemon that is exiting); 0 is 3 s.
	OpenWait time.Duration
	// Ready, when set, is told "ok\n" once the daemon serves, or
	// "error: <one line>\n" when it cannot start; then it is closed.
	Ready io.WriteCloser
	// suspended, when set, is called each time the daemon has suspended the
	// store (tests).
	suspended func()
	// Log receives one line for each thing the daemon could not do on a
	// client's behalf (say, a malformed event while it closed an abandoned
	// turn); nil: nowhere.
	Log io.Writer
}

// Run opens the store, serves it on cfg.Files.Socket and returns when ctx
// ends, the daemon was idle for cfg.Idle, or the store directory was removed.
func Run(ctx context.Context, cfg Config) error {
	if cfg.Idle <= 0 {
		cfg.Idle = DefaultIdle
	}
	if cfg.SuspendAfter == 0 {
		cfg.SuspendAfter = DefaultSuspendAfter
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
		err = fmt.Errorf("daemon: listen on %s: %w", cfg.Files.Socket, err)
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
		tokenPath = remote.TokenFor(cfg.Files.Socket)
	}
	token, err := remote.NewDaemonToken(tokenPath)
	if err != nil {
		l.Close()
		ready(err)
		return err
	}
	srv := remote.NewServer(store, cfg.Version, store.Dir())
	srv.RequireToken(token) // clients without it, or of another uid, are refused
	srv.SetLog(cfg.Log)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	ready(nil)

	// The loop wakes every period while the store is open, and every
	// suspendedPeriod once it is suspended (an idle daemon then wakes up a
	// few times a minute; a request reopens the store without the loop).
	period := min(max(cfg.Idle/4, 10*time.Millisecond), time.Second)
	if cfg.SuspendAfter > 0 {
		period = min(period, max(cfg.SuspendAfter/4, 10*time.Millisecond))
	}
	suspendedPeriod := min(max(cfg.Idle/4, 10*time.Millisecond), 5*time.Second)
	current := period
	tick := time.NewTicker(period)
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
			return fmt.Errorf("daemon: the store directory %s was removed", cfg.StoreDir)
		}
		idle := srv.IdleFor()
		if cfg.SuspendAfter > 0 && idle >= cfg.SuspendAfter && !store.Suspended() {
			if err := store.Suspend(); err != nil && cfg.Log != nil {
				fmt.Fprintf(cfg.Log, "%s pincer store-daemon pid %d: suspending the store: %v\n",
					time.Now().Format(time.RFC3339), os.Getpid(), err)
			} else if err == nil && cfg.suspended != nil {
				cfg.suspended()
			}
		}
		want := period
		if store.Suspended() {
			want = suspendedPeriod
		}
		if want != current {
			current = want
			tick.Reset(current)
		}
		if idle < cfg.Idle {
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
func openForDaemon(ctx context.Context, dir string, opts badger.Options, wait time.Duration) (*badger.Store, error) {
	deadline := time.Now().Add(wait)
	for {
		b, err := badger.OpenWith(dir, opts)
		if err == nil || !errors.Is(err, persist.ErrInUse) || time.Now().After(deadline) {
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
func closeWithin(b *badger.Store, d time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- b.Close() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		return fmt.Errorf("daemon: closing the store took longer than %s; leaving it to recovery", d)
	}
}
