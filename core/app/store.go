package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"pincer/core/config"
	"pincer/persist"
	"pincer/persist/badger"
	"pincer/persist/daemon"
	"pincer/persist/memory"
)

// ErrNoStore is returned by OpenExistingStore when pincer has never stored anything.
var ErrNoStore = errors.New("no store yet")

// StoreDir is where the Badger store lives (config.Paths.Store).
func StoreDir() (string, error) {
	p := config.PathsFrom(os.Getenv)
	return p.Store, p.DataErr
}

// OpenExistingStore opens the store for reading commands, which must not create one:
// ErrNoStore when there is none. Like OpenStore it goes through the store daemon
// unless PINCER_NO_DAEMON is set.
func OpenExistingStore() (persist.Store, error) {
	dir, err := StoreDir()
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return nil, ErrNoStore
	}
	if useDirectStore() {
		return badger.Open(dir)
	}
	return openDaemonStore(dir)
}

// OpenStore opens the store under the data directory, creating it. By default it
// is a client of the store daemon (`pincer store-daemon`, started on demand), so
// any number of pincer processes share the store; with PINCER_NO_DAEMON=1 (what
// `pincer run --no-daemon` sets) it opens Badger directly, as OpenStoreDirect.
func OpenStore() (persist.Store, error) {
	dir, err := StoreDir()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create store directory: %w", err)
	}
	if useDirectStore() {
		return badger.Open(dir)
	}
	return openDaemonStore(dir)
}

// OpenStoreDirect opens the Badger store in this process, creating it. It fails
// with one line naming the holder while another process (the store daemon, or a
// pincer run with --no-daemon) has it open.
func OpenStoreDirect() (persist.Store, error) {
	dir, err := StoreDir()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create store directory: %w", err)
	}
	return badger.Open(dir)
}

// StoreDaemonCommand is the hidden command that runs the store daemon (main.go
// dispatches it; OpenStore starts it as `pincer store-daemon --store DIR ...`).
const StoreDaemonCommand = daemon.Command

// noDaemonEnv, set to anything but "" or "0", makes pincer open the store directly.
const noDaemonEnv = "PINCER_NO_DAEMON"

// storeIdleEnv sets how long an idle store daemon lives (a Go duration).
const storeIdleEnv = "PINCER_STORE_IDLE"

// useDirectStore reports whether to open Badger in this process: PINCER_NO_DAEMON
// is set, or this is a test binary (which cannot be re-executed as the daemon).
func useDirectStore() bool {
	if v := os.Getenv(noDaemonEnv); v != "" && v != "0" {
		return true
	}
	return flag.Lookup("test.v") != nil
}

// maxSocketPath is the longest Unix socket path every platform accepts.
const maxSocketPath = 100

// DaemonFiles names the store daemon's files for the store in dir; a run
// directory too deep for a socket path falls back to $TMPDIR/pincer-<uid>.
func DaemonFiles(dir string) daemon.Files {
	files := daemon.FilesFor(config.PathsFrom(os.Getenv).Run, dir) // $PINCER_HOME/run, else $XDG_RUNTIME_DIR/pincer, else $TMPDIR/pincer-<uid>
	if len(files.Socket) > maxSocketPath {
		files = daemon.FilesFor(filepath.Join(os.TempDir(), fmt.Sprintf("pincer-%d", os.Getuid())), dir)
	}
	return files
}

// StoreIdle is the idle period of a daemon this process starts.
func StoreIdle() time.Duration {
	if d, err := time.ParseDuration(os.Getenv(storeIdleEnv)); err == nil && d > 0 {
		return d
	}
	return daemon.DefaultIdle
}

// openDaemonStore connects to the store daemon of dir, starting it (this
// executable, `store-daemon`) when none runs.
func openDaemonStore(dir string) (persist.Store, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot start the store daemon: %v", err)
	}
	files := DaemonFiles(dir)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return daemon.Connect(ctx, daemon.StartOptions{
		Files: files,
		Command: []string{exe, StoreDaemonCommand, "--store", dir, "--socket", files.Socket,
			"--idle", StoreIdle().String(), "--ready-fd", "3"},
	})
}

// OpenStoreForReading is OpenExistingStore for the reading commands (pincer
// sessions, audit): when pincer has never stored anything it is an empty
// in-memory store — they list nothing and create nothing. The caller closes it.
func OpenStoreForReading() (persist.Store, error) {
	store, err := OpenExistingStore()
	if errors.Is(err, ErrNoStore) {
		return memory.New(), nil
	}
	return store, err
}

// StoreDaemonMain runs the store daemon process (`pincer store-daemon`:
// persist/daemon.Main over this user's store directory and daemon files,
// StoreDir and DaemonFiles) with the binary's version, and returns its exit code.
func StoreDaemonMain(args []string, stderr io.Writer, version string) int {
	return daemon.Main(args, stderr, daemon.Entry{Version: version, StoreDir: StoreDir, FilesFor: DaemonFiles})
}
