package daemon

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

	"pincer/persist/badger"
)

// Command is the name of the hidden command that runs the store daemon
// (`pincer store-daemon`); persist/badger names it too, to tell a daemon
// holding a store from another process.
const Command = "store-daemon"

// Exit codes of Main.
const (
	ExitStopped = 0 // stopped on its own (idle, store removed) or on SIGTERM/SIGINT
	ExitFailed  = 1 // could not serve
	ExitUsage   = 2 // bad flags
)

// Entry is what Main needs from the program that runs it.
type Entry struct {
	// Version is pincer's version, reported to clients (Ping).
	Version string
	// StoreDir returns the store directory served when --store is not given.
	StoreDir func() (string, error)
	// FilesFor names the daemon files of a store directory (absolute), as the
	// clients of that store name them.
	FilesFor func(storeDir string) Files
}

// Main is `pincer store-daemon [--store DIR] [--socket PATH] [--idle D]
// [--ready-fd N] [--sync]`: the process that owns the Badger store and serves
// it to the other pincer processes over a Unix socket (Run). Clients start it
// on demand (detached, Starter); it exits after --idle with no client. Its
// stdout and stderr go to the log file beside the socket, one timestamped line
// when it starts and one when it ends. It returns ExitStopped, ExitFailed or
// ExitUsage.
func Main(args []string, stderr io.Writer, e Entry) int {
	fs := flag.NewFlagSet(Command, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	store := fs.String("store", "", "the store directory (default: the data directory's store)")
	socket := fs.String("socket", "", "the Unix socket to serve on (default: derived from the store path)")
	idle := fs.Duration("idle", DefaultIdle, "exit after this long without a client")
	readyFD := fs.Int("ready-fd", 0, `file descriptor told "ok" (or "error: ...") once serving`)
	sync := fs.Bool("sync", false, "fsync every commit (survives a power cut, slower)")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "pincer store-daemon: %v\n", err)
		return ExitUsage
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
		return ExitFailed
	}
	if *store == "" {
		dir, err := e.StoreDir()
		if err != nil {
			return fail(err)
		}
		*store = dir
	}
	if abs, err := filepath.Abs(*store); err == nil {
		*store = abs
	}
	files := e.FilesFor(*store)
	if *socket != "" && *socket != files.Socket {
		files = Files{Socket: *socket, Lock: LockFor(*socket)}
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	signal.Ignore(syscall.SIGHUP, syscall.SIGPIPE)
	cfg := Config{StoreDir: *store, Files: files, Idle: *idle, Version: e.Version,
		Options: badger.Options{SyncWrites: *sync}, Log: stderr}
	if ready != nil {
		cfg.Ready = ready
	}
	start := time.Now()
	fmt.Fprintf(stderr, "%s pincer store-daemon pid %d: serving %s on %s\n",
		start.Format(time.RFC3339), os.Getpid(), *store, files.Socket)
	err := Run(ctx, cfg)
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "%s pincer store-daemon pid %d: %v\n", time.Now().Format(time.RFC3339), os.Getpid(), err)
		return ExitFailed
	}
	fmt.Fprintf(stderr, "%s pincer store-daemon pid %d: exiting after %s\n",
		time.Now().Format(time.RFC3339), os.Getpid(), time.Since(start).Round(time.Second))
	return ExitStopped
}
