package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/term"

	"pincer/core/agent"
	"pincer/core/app"
	"pincer/core/config"
	"pincer/core/permission"
	"pincer/ui/termtext"
	"pincer/ui/tui"
	"pincer/ui/web"
)

// serveFlags are `pincer serve`'s flags: the address, --allow-remote, and the
// flags that shape every workspace's run (addWorkspaceFlags).
type serveFlags struct {
	sessionFlags
	addr        string
	allowRemote bool
	allowBypass bool
}

// cmdServe is `pincer serve`: the HTTP API, its event streams and the web
// panel (ui/web) on a loopback address (--addr, default 127.0.0.1 on a random
// port; another address only with --allow-remote). It writes a fresh token
// to the run directory's serve.token (0600, in a directory the sandbox hides),
// prints on stdout the URL with a one-time login code (web.LoginCodeTTL), the
// token and the file's path when stdout is a terminal — else (a redirect to a
// file a sandboxed command could read) the URL without a code and the file's
// path only —, logs on stderr, and serves until SIGINT,
// SIGTERM or SIGHUP: then running turns are cancelled and recorded, the
// sessions' SessionEnd hooks run, and the token file is removed. It holds
// the run directory's serve.lock meanwhile: a second start with the same
// PINCER_HOME fails (exit 1) naming the first's pid and address.
func cmdServe(args []string, stdout, stderr io.Writer) (int, error) {
	f := &serveFlags{}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addWorkspaceFlags(fs, &f.sessionFlags)
	fs.StringVar(&f.addr, "addr", "127.0.0.1:0", "address to listen on, HOST:PORT (port 0: a random one); loopback only unless --allow-remote")
	fs.BoolVar(&f.allowRemote, "allow-remote", false, "allow a non-loopback --addr (anyone who can reach it and has the token drives your sessions)")
	fs.BoolVar(&f.allowBypass, "allow-dangerously-skip-permissions", false, "let API clients switch a session to bypassPermissions (as Claude Code's flag; also allowed when started with --permission-mode bypassPermissions)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "Usage: pincer serve [--addr 127.0.0.1:PORT] [flags]   (HTTP API, event streams and web panel; prints its URL with the token)")
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return 0, nil
		}
		return 0, flagError(err.Error())
	}
	if fs.NArg() > 0 {
		return 0, usagef("serve takes no arguments, got %q", fs.Arg(0))
	}
	opts, err := f.options(fs)
	if err != nil {
		return 0, err
	}
	opts.Command = "pincer serve"
	if err := checkServeAddr(f.addr, f.allowRemote); err != nil {
		return 0, err
	}
	runDir := config.PathsFrom(os.Getenv).Run
	lock, err := web.LockServe(runDir) // one server per PINCER_HOME: its token file is ours until exit
	if err != nil {
		return 1, fmt.Errorf("serve: %w", err)
	}
	defer lock.Release()
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return 1, fmt.Errorf("serve: %w", err)
	}
	defer ln.Close()
	if err := lock.Record(ln.Addr().String()); err != nil {
		return 1, err
	}
	token, err := web.NewToken()
	if err != nil {
		return 1, err
	}
	tokenPath, removeToken, err := web.WriteToken(runDir, token)
	if err != nil {
		return 1, err
	}
	defer removeToken()
	store, err := app.OpenSharedStore()
	if err != nil {
		return 1, err
	}
	defer store.Close()
	addr := ln.Addr().String()
	srv := web.New(store, web.Options{Base: opts, Token: token, Addr: addr, WorkbenchCommands: tui.WorkbenchCommands(),
		AllowBypass: f.allowBypass || opts.Mode == permission.ModeBypass,
		Logf:        func(format string, a ...any) { fmt.Fprintf(stderr, "pincer serve: "+format+"\n", a...) }})
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	if writesToTerminal(stdout) {
		code, err := srv.NewLoginCode()
		if err != nil {
			return 1, err
		}
		// The URL carries a one-time code, not the token: the browser's
		// history keeps only a spent code. The token is printed once, on
		// its own line.
		fmt.Fprintf(stdout, "pincer serve: http://%s/?login=%s\n", addr, code)
		fmt.Fprintf(stdout, "token: %s\n", token)
	} else {
		// A file or pipe may be readable by a sandboxed command (the
		// workspace): it gets no credential, only where the token is.
		fmt.Fprintf(stdout, "pincer serve: http://%s/ (log in with ?token= and the token file's content)\n", addr)
	}
	fmt.Fprintf(stdout, "token file: %s\n", tokenPath)

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	var stopped os.Signal
	select {
	case stopped = <-sigs:
		fmt.Fprintf(stderr, "pincer serve: %s: stopping\n", stopped)
	case err = <-served:
	}
	closeErr := srv.Close(causeOf(stopped)) // turns cancelled and recorded, SessionEnd hooks, Runs closed
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	_ = hs.Shutdown(ctx) // the event streams ended with srv.Close
	cancel()
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return 1, fmt.Errorf("serve: %w", err)
	}
	if closeErr != nil {
		fmt.Fprintf(stderr, "pincer serve: closing: %v\n", closeErr)
	}
	return 0, nil
}

// causeOf is the cancel cause of the running turns for the signal that
// stopped the server (nil: none, or an interrupt — "cancelled by user").
func causeOf(sig os.Signal) error {
	if sig == nil {
		return nil
	}
	return agent.SignalCause(sig)
}

// checkServeAddr refuses an address that is not HOST:PORT, and a host that
// is not loopback unless allowRemote.
func checkServeAddr(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return usagef("--addr %s: want HOST:PORT (%v)", addr, err)
	}
	if allowRemote || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return usagef("--addr %s is not a loopback address: add --allow-remote to listen there (anyone who can reach it and has the token drives your sessions)", addr)
}

// writesToTerminal reports whether w is a terminal (an *os.File on a tty,
// also inside a termtext.Writer):
// only then does serve print its token and login code.
func writesToTerminal(w io.Writer) bool {
	if tw, ok := w.(*termtext.Writer); ok { // cli.Main's cleaning wrapper
		w = tw.W
	}
	f, ok := w.(*os.File)
	return ok && f != nil && term.IsTerminal(int(f.Fd()))
}
