package lsp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"pincer/sandbox"
)

// DefaultWait bounds how long a changed file's diagnostics are waited for
// after the server is told of the change (a server slower than this still
// delivers them: they are read again at the next model call).
const DefaultWait = 3 * time.Second

// startWait bounds a server's start and initialize handshake.
const startWait = 15 * time.Second

// shutdownWait bounds each of the shutdown request and the exit.
const shutdownWait = 2 * time.Second

// ServerEnv is the environment every language server gets beside the
// sandbox's allowlist: Go's toolchain switch off (a go.mod "toolchain" line
// must not download and run another Go: gopls runs `go list`), no telemetry
// upload.
var ServerEnv = []string{"GOTOOLCHAIN=local", "GOTELEMETRY=off"}

// Options configure a Manager.
type Options struct {
	// Servers are the servers in force (Resolve).
	Servers []Server
	// Root is the workspace root: one server per Server for it.
	Root string
	// Executor starts the servers under the session's sandbox policy (nil:
	// started as plain processes, without the OS sandbox: tests only and
	// --no-sandbox).
	Executor *sandbox.Executor
	// Wait bounds the wait for a change's diagnostics (0: DefaultWait).
	Wait time.Duration
	// Warn, when set, also receives each warning (Warnings).
	Warn func(string)
}

// Manager owns the language servers of one workspace and, per session, the
// files changed in the current turn. Safe for concurrent use.
type Manager struct {
	opts Options

	mu      sync.Mutex
	clients map[string]*client // by server name
	failed  map[string]bool    // servers that could not start: not retried
	procs   map[string]*sandbox.Process
	changed map[string]map[string]bool // session -> absolute paths changed this turn
	closed  bool
	warns   []string
}

// New returns a Manager; nothing starts until a file changes.
func New(opts Options) *Manager {
	if opts.Wait <= 0 {
		opts.Wait = DefaultWait
	}
	return &Manager{opts: opts, clients: map[string]*client{}, failed: map[string]bool{},
		procs: map[string]*sandbox.Process{}, changed: map[string]map[string]bool{}}
}

// Servers returns the servers in force.
func (m *Manager) Servers() []Server { return m.opts.Servers }

// TurnStarted forgets the files session changed in its previous turn: the
// diagnostics segment covers the files changed in this one.
func (m *Manager) TurnStarted(session string) {
	m.mu.Lock()
	delete(m.changed, session)
	m.mu.Unlock()
}

// FilesChanged tells the servers of paths' extensions their new content
// (starting a server on its first file), records them as changed in
// session's turn, and waits (Options.Wait at most, or until ctx ends) for
// their fresh diagnostics. Paths no server serves are ignored; a path that
// no longer exists is closed.
func (m *Manager) FilesChanged(ctx context.Context, session string, paths []string) {
	var pending = map[*client][]pendingDoc{}
	for _, p := range paths {
		srv, lang, ok := serverFor(m.opts.Servers, p)
		if !ok || !within(m.opts.Root, p) {
			continue
		}
		c := m.client(ctx, srv)
		if c == nil {
			continue
		}
		m.mu.Lock()
		if m.changed[session] == nil {
			m.changed[session] = map[string]bool{}
		}
		m.changed[session][p] = true
		m.mu.Unlock()
		text, err := readInside(m.opts.Root, p)
		if errors.Is(err, os.ErrNotExist) {
			c.forget(p)
			continue
		}
		if err != nil {
			continue
		}
		uri, v, seq, err := c.sync(p, lang, string(text))
		if err == nil {
			pending[c] = append(pending[c], pendingDoc{uri: uri, version: v, seq: seq})
		}
	}
	if len(pending) == 0 {
		return
	}
	wctx, cancel := context.WithTimeout(ctx, m.opts.Wait)
	defer cancel()
	var wg sync.WaitGroup
	for c, docs := range pending {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.waitFor(wctx, docs)
		}()
	}
	wg.Wait()
}

// within reports whether path is root or below it.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !filepath.IsAbs(rel) && (len(rel) < 3 || rel[:3] != "../")
}

// client returns srv's running client, starting it the first time; nil when
// it cannot start (warned once, not retried) or the Manager is closed.
func (m *Manager) client(ctx context.Context, srv Server) *client {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed || m.failed[srv.Name] {
		return nil
	}
	if c := m.clients[srv.Name]; c != nil {
		if c.alive() {
			return c
		}
		delete(m.clients, srv.Name)
		m.failed[srv.Name] = true
		m.warn("language server %s (%s) exited; its diagnostics are off for this run%s", srv.Name, srv.Command, m.tail(srv.Name))
		return nil
	}
	c, err := m.start(ctx, srv)
	if err != nil {
		m.failed[srv.Name] = true
		m.warn("language server %s (%s) did not start: %v%s", srv.Name, srv.Command, err, m.tail(srv.Name))
		return nil
	}
	m.clients[srv.Name] = c
	return c
}

// tail is the last of a server's stderr, for a warning ("" when none).
func (m *Manager) tail(name string) string {
	p := m.procs[name]
	if p == nil {
		return ""
	}
	b, _, _ := p.Output().ReadSince(0)
	if len(b) > 400 {
		b = b[len(b)-400:]
	}
	if len(b) == 0 {
		return ""
	}
	return ": " + string(b)
}

// warn records a warning; m.mu is held.
func (m *Manager) warn(format string, a ...any) {
	w := fmt.Sprintf(format, a...)
	m.warns = append(m.warns, w)
	if m.opts.Warn != nil {
		m.opts.Warn(w)
	}
}

// Warnings are the servers that could not start or died, one line each with
// the end of their stderr (`pincer doctor`, tests).
func (m *Manager) Warnings() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.warns...)
}

// start runs srv in Root under the Executor and does the handshake.
func (m *Manager) start(ctx context.Context, srv Server) (*client, error) {
	cmd := sandbox.Command{Path: srv.Command, Args: srv.Args, Dir: m.opts.Root,
		Env: append(append([]string(nil), ServerEnv...), srv.Env...), MaxOutput: 64 << 10}
	proc, pipes, err := m.opts.Executor.StartPiped(context.WithoutCancel(ctx), cmd)
	if err != nil {
		return nil, err
	}
	m.procs[srv.Name] = proc
	stop := func() {
		pipes.Close()
		proc.Kill()
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), startWait)
	defer cancel()
	return dial(sctx, pipes.Out, pipes.In, stop, m.opts.Root, nil)
}

// Pids are the process ids of the running servers (the helpers' under a
// sandbox), for tests and `pincer doctor`.
func (m *Manager) Pids() []int {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []int
	for name := range m.clients {
		if p := m.procs[name]; p != nil {
			out = append(out, p.Pid())
		}
	}
	sort.Ints(out)
	return out
}

// Close shuts every server down (shutdown, exit, then the process group is
// killed) and starts no more. Safe to call twice.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	clients := m.clients
	m.clients = map[string]*client{}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.shutdown(shutdownWait)
		}()
	}
	wg.Wait()
}

// readInside reads the file p below root through an os.Root, which follows
// no link out of root: a changed file a background command swapped for a
// link leading outside is not read (and its text not sent to the server)
// by pincer's own, unconfined process (red team r21c F3).
func readInside(root, p string) ([]byte, error) {
	rel, err := filepath.Rel(root, p)
	if err != nil || !filepath.IsLocal(rel) {
		return nil, fmt.Errorf("%s is not inside %s", p, root)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.ReadFile(rel)
}
