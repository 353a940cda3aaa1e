package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"pincer/core/app"
	"pincer/persist"
)

// StoreDaemonCommand is the hidden command that runs the store daemon.
const StoreDaemonCommand = app.StoreDaemonCommand

// StoreDaemon is `pincer store-daemon`: the process that owns the Badger store
// and serves it to the other pincer processes over a Unix socket. Clients start
// it on demand (detached); it exits after --idle with no client. Its stdout and
// stderr go to a log file next to the socket. It exits 0 when it stopped on its
// own or on SIGTERM/SIGINT, 1 when it could not serve.
func StoreDaemon(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet(StoreDaemonCommand, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	store := fs.String("store", "", "the store directory (default: the data directory's store)")
	socket := fs.String("socket", "", "the Unix socket to serve on (default: derived from the store path)")
	idle := fs.Duration("idle", persist.DefaultIdle, "exit after this long without a client")
	readyFD := fs.Int("ready-fd", 0, `file descriptor told "ok" (or "error: ...") once serving`)
	sync := fs.Bool("sync", false, "fsync every commit (survives a power cut, slower)")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "pincer store-daemon: %v\n", err)
		return exitUsage
	}
	var ready *os.File
	if *readyFD > 0 {
		ready = os.NewFile(uintptr(*readyFD), "ready")
	}
	fail := func(err error) int {
		if ready != nil {
			fmt.Fprintf(ready, "error: %v\n", err)
			ready.Close()
		}
		fmt.Fprintf(stderr, "pincer store-daemon: %v\n", err)
		return 1
	}
	if *store == "" {
		dir, err := app.StoreDir()
		if err != nil {
			return fail(err)
		}
		*store = dir
	}
	if abs, err := filepath.Abs(*store); err == nil {
		*store = abs
	}
	files := app.DaemonFiles(*store)
	if *socket != "" && *socket != files.Socket {
		files = persist.DaemonFiles{Socket: *socket, Lock: persist.LockFor(*socket)}
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	signal.Ignore(syscall.SIGHUP, syscall.SIGPIPE)
	cfg := persist.DaemonConfig{StoreDir: *store, Files: files, Idle: *idle, Version: Version,
		Options: persist.BadgerOptions{SyncWrites: *sync}}
	if ready != nil {
		cfg.Ready = ready
	}
	start := time.Now()
	fmt.Fprintf(stderr, "%s pincer store-daemon pid %d: serving %s on %s\n",
		start.Format(time.RFC3339), os.Getpid(), *store, files.Socket)
	err := persist.RunDaemon(ctx, cfg)
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "%s pincer store-daemon pid %d: %v\n", time.Now().Format(time.RFC3339), os.Getpid(), err)
		return 1
	}
	fmt.Fprintf(stderr, "%s pincer store-daemon pid %d: exiting after %s\n",
		time.Now().Format(time.RFC3339), os.Getpid(), time.Since(start).Round(time.Second))
	return 0
}
