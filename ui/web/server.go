// Package web is `pincer serve`'s front end: a local HTTP API with
// Server-Sent Events and the embedded web panel, over the composition root
// (core/app) as the workbench is. One app.Run per workspace directory, made on
// first use and kept; every session of the store is listed and its log
// streamed (a workbench's or `pincer run`'s in another process too), but a
// turn runs only on a session no other process holds (409 lease_held naming
// the holder). The routes and error codes are stable (README "pincer
// serve"); guard.go holds the checks every request passes.
package web

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"sync"
	"time"

	"pincer/core/app"
)

// DefaultKeepAlive is how often an idle event stream gets a keep-alive
// comment.
const DefaultKeepAlive = 15 * time.Second

// Options configure a Server.
type Options struct {
	// Base are the options every workspace's Run is prepared with (the
	// serve command's flags: model, base URL, permission mode, sandbox,
	// network, rules); Dir and Session are set per workspace.
	Base app.Options
	// Token is the bearer token every request must carry (NewToken).
	Token string
	// Addr is the bound address (host:port) the Host and Origin checks
	// accept, with localhost and [::1] at the same port.
	Addr string
	// KeepAlive is the interval of an idle event stream's keep-alive
	// comments; 0: DefaultKeepAlive.
	KeepAlive time.Duration
	// WorkbenchCommands are the /names only the workbench does (it has a
	// screen: ui/tui WorkbenchCommands); a turn's input starting with one is
	// 400 not_available.
	WorkbenchCommands []string
	// AllowBypass lets POST /api/sessions/{id}/mode switch a session to
	// bypassPermissions; without it that request is 403 bypass_not_allowed
	// (as Claude Code, only with --allow-dangerously-skip-permissions or a
	// start in that mode: the token alone must not turn approvals off).
	AllowBypass bool
	// Logf logs one line of the server's (stderr); nil: none.
	Logf func(format string, a ...any)
}

// Server is the HTTP API over a shared store. Make it with New, serve
// Handler, end it with Close. Safe for concurrent use.
type Server struct {
	opts  Options
	store *app.SharedStore
	hosts map[string]bool
	mux   *http.ServeMux

	ctx    context.Context // the turns' parent; cancelled by Close
	cancel context.CancelCauseFunc

	createMu sync.Mutex // one workspace made at a time (Prepare + Start), outside mu

	mu      sync.Mutex
	spaces  map[string]*workspace // by directory (as asked and as resolved)
	turns   map[string]*turnRun   // running turns by session ID
	closed  bool
	turnsWG sync.WaitGroup

	logins  loginCodes
	pending *pendingSet
	folds   *foldCache
	tails   *tails
}

// New returns a Server over store (which the caller closes after Close).
func New(store *app.SharedStore, opts Options) *Server {
	if opts.KeepAlive <= 0 {
		opts.KeepAlive = DefaultKeepAlive
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	s := &Server{opts: opts, store: store, hosts: allowedHosts(opts.Addr), ctx: ctx, cancel: cancel,
		spaces: map[string]*workspace{}, turns: map[string]*turnRun{},
		pending: newPendingSet(store.Log()), folds: newFoldCache(store.Log()), tails: newTails(store.Log())}
	s.pending.labelOf = s.childLabel
	s.logins = loginCodes{now: time.Now, codes: map[string]time.Time{}}
	s.mux = s.routes()
	return s
}

// Handler is the server's HTTP handler: every route behind guard.
func (s *Server) Handler() http.Handler { return s.guard(s.mux) }

// logf logs through Options.Logf.
func (s *Server) logf(format string, a ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf(format, a...)
	}
}

// Close ends the server's work as the workbench's quit does: running turns
// are cancelled with cause (nil: "cancelled by user") and recorded, each
// session started here gets its SessionEnd hooks (reason "exit"), every Run
// is closed (its subagents ended, shells, MCP servers). Requests after it
// fail; the store stays open.
func (s *Server) Close(cause error) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	s.cancel(cause)
	s.createMu.Lock() // a workspace being made sees closed and closes itself
	s.createMu.Unlock()
	s.turnsWG.Wait()
	s.mu.Lock()
	spaces := map[*workspace]bool{}
	for _, w := range s.spaces {
		spaces[w] = true
	}
	s.mu.Unlock()
	var errs []error
	for w := range spaces {
		errs = append(errs, w.close())
	}
	return errors.Join(errs...)
}

// errClosed is the refusal of work after Close.
var errClosed = errorf(http.StatusServiceUnavailable, CodeInternal, "the server is shutting down")

// cleanDir is a workspace key: an absolute, cleaned directory.
func cleanDir(dir string) string { return filepath.Clean(dir) }

// workspaceFor returns the workspace of dir, preparing and starting its Run
// on first use (session: a stored session of dir it resumes; "": a new
// session, the Run's own). A configuration that does not load is a
// bad_request with its FILE:LINE.
func (s *Server) workspaceFor(ctx context.Context, dir, session string) (w *workspace, created bool, err error) {
	key := cleanDir(dir)
	s.createMu.Lock()
	defer s.createMu.Unlock()
	s.mu.Lock()
	w, closed := s.spaces[key], s.closed
	s.mu.Unlock()
	switch {
	case closed:
		return nil, false, errClosed
	case w != nil:
		return w, false, nil
	}
	if w, err = openWorkspace(ctx, s, key, session); err != nil { // slow: the other requests go on meanwhile
		return nil, false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	other := s.spaces[w.root] // the same directory by another name
	if s.closed || other != nil {
		_ = w.close()
		if s.closed {
			return nil, false, errClosed
		}
		s.spaces[key] = other
		return other, false, nil
	}
	s.spaces[key], s.spaces[w.root] = w, w
	return w, true, nil
}

// existingWorkspace is the workspace of dir when this server has one.
func (s *Server) existingWorkspace(dir string) *workspace {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.spaces[cleanDir(dir)]
}

// allWorkspaces lists each workspace once.
func (s *Server) allWorkspaces() []*workspace {
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := map[*workspace]bool{}
	var out []*workspace
	for _, w := range s.spaces {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// holderDescription is who else runs sessionID (of directory cwd) now, for
// people ("pid 4242 (pincer on box)"); "" when nobody, or this server.
func (s *Server) holderDescription(ctx context.Context, sessionID, cwd string) (string, error) {
	if w := s.existingWorkspace(cwd); w != nil {
		return w.be.Runner(ctx, sessionID)
	}
	return s.store.Holder(ctx, sessionID, nil)
}

// fmtHolder is lease_held's message.
func fmtHolder(sessionID, holder string) *apiError {
	return errorf(http.StatusConflict, CodeLeaseHeld, "session %s is run by %s: watch it here, send turns there", sessionID, holder)
}
