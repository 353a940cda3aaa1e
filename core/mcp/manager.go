package mcp

import (
	"context"
	"errors"
	"sort"
	"sync"
	"time"

	"pincer/tools"
)

// Defaults for Options fields left zero.
const (
	DefaultConnectTimeout = 30 * time.Second
	DefaultMinBackoff     = 500 * time.Millisecond
	DefaultMaxBackoff     = 30 * time.Second
	DefaultKeepAlive      = 30 * time.Second
	// killGrace is how long a stdio server gets between SIGTERM and SIGKILL.
	killGrace = 2 * time.Second
)

// Options configure a Manager.
type Options struct {
	// Registry receives each ready server's tools (mcp__SERVER__TOOL) and loses
	// them when the server goes away. nil: a registry of the Manager's own.
	Registry *tools.Registry
	// LogDir is where stdio servers' stderr goes, one file per server
	// (LogDir/SERVER.log, 0600, appended); "" discards it.
	LogDir string
	// Dir is the workspace root: stdio servers get it as PINCER_PROJECT_DIR
	// and CLAUDE_PROJECT_DIR, their relative path arguments (".", "./x") are
	// made absolute against it, and they run in it when RunDir is "" (""
	// too: pincer's own working directory).
	Dir string
	// RunDir, when set, is stdio servers' working directory instead of Dir
	// (made 0700 when missing): a directory no sandboxed command can write,
	// so that a package runner started there reads no .npmrc (script-shell,
	// node-options), node_modules or pyproject.toml the model put in the
	// workspace (red team r24c F1, F1b: the person's `npx -y PKG@VER` server
	// ran the workspace's .npmrc script-shell and node_modules/PKG).
	RunDir string
	// CacheDir, when set, is where stdio servers' package managers keep
	// their caches (cacheEnv: npm, npx, uv, pip, Go, the XDG cache), unless an
	// entry's env names its own: a directory of pincer's that no sandboxed
	// command can see or write. The person's ~/.npm and ~/.cache are
	// writable by commands (toolchain caches), and a server started outside
	// the sandbox by npx or uvx runs the cached package as it finds it (red
	// team r24b F2: a command edited the cached install of the person's
	// `npx -y cowsay@1.6.0` server, which ran it at the next start).
	CacheDir string
	// BaseEnv is stdio servers' environment before each entry's env; nil:
	// sandbox.CommandEnv() (the allowlist every command gets, no secrets).
	BaseEnv []string
	// ClientVersion is the version pincer names itself with in initialize.
	ClientVersion string
	// ConnectTimeout bounds initialize and the first lists; 0: DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// TimeoutHint names what sets ConnectTimeout in a timeout's reason ("timed
	// out after 10s (MCP_TIMEOUT)"); "": none named.
	TimeoutHint string
	// MinBackoff and MaxBackoff bound the wait before a reconnect, which doubles
	// from MinBackoff after each failure and starts over once a server was ready;
	// 0: DefaultMinBackoff, DefaultMaxBackoff.
	MinBackoff, MaxBackoff time.Duration
	// KeepAlive is how often an HTTP or SSE server is pinged, so one that went
	// away is noticed (failed, its tools removed, reconnecting) before the next
	// call; 0: DefaultKeepAlive. A stdio server's end is seen on its output.
	KeepAlive time.Duration
	// CallTimeout bounds one tool call; 0: no bound but the turn's own
	// cancellation (Claude Code's MCP_TOOL_TIMEOUT, which core/app reads).
	CallTimeout time.Duration
}

func (o Options) withDefaults() Options {
	if o.Registry == nil {
		o.Registry = tools.NewRegistry()
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = DefaultMinBackoff
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultMaxBackoff
	}
	if o.KeepAlive <= 0 {
		o.KeepAlive = DefaultKeepAlive
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = o.MinBackoff
	}
	if o.ClientVersion == "" {
		o.ClientVersion = "dev"
	}
	return o
}

// Manager runs a session's MCP servers (one per Run): it connects each
// approved server in the background, keeps its tools in the registry while it
// is ready, reconnects with backoff when it drops, and reports every change.
// Its methods are safe for concurrent use.
type Manager struct {
	opts   Options
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	servers map[string]*server
	subs    map[int]func(ServerState)
	nextSub int
	changed chan struct{} // closed and replaced on each change (WaitReady)
	closed  bool
}

// NewManager returns a Manager with no servers; Start gives it some.
func NewManager(opts Options) *Manager {
	ctx, cancel := context.WithCancel(context.Background())
	return &Manager{opts: opts.withDefaults(), ctx: ctx, cancel: cancel,
		servers: map[string]*server{}, subs: map[int]func(ServerState){}, changed: make(chan struct{})}
}

// Registry is the registry the Manager adds its servers' tools to.
func (m *Manager) Registry() *tools.Registry { return m.opts.Registry }

// Start adds servers and returns at once: each Approved one connects in the
// background (StatusConnecting, then StatusReady or StatusFailed), the others
// are listed as StatusNeedsApproval and not started. A server with a bad name
// (CheckServerName) is StatusFailed with that reason. ctx is not kept: the
// servers live until Close (or Set replaces them).
func (m *Manager) Start(_ context.Context, servers []ServerConfig) {
	for _, cfg := range servers {
		m.Set(cfg)
	}
}

// Set adds the server cfg, or replaces the one of that name: the old
// connection (if any) is closed and its tools removed, then cfg is started when
// it is Approved — how an approval given in /mcp takes effect.
func (m *Manager) Set(cfg ServerConfig) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	old := m.servers[cfg.Name]
	s := newServer(m, cfg)
	m.servers[cfg.Name] = s
	m.mu.Unlock()
	if old != nil {
		old.stop()
	}
	s.start()
}

// Remove stops and forgets the server called name; it reports whether there was one.
func (m *Manager) Remove(name string) bool {
	m.mu.Lock()
	s := m.servers[name]
	delete(m.servers, name)
	m.mu.Unlock()
	if s == nil {
		return false
	}
	s.stop()
	m.notify(ServerState{Config: s.cfg, Status: StatusDisabled, Reason: "removed"})
	return true
}

// States returns every server's state, sorted by name.
func (m *Manager) States() []ServerState {
	m.mu.Lock()
	list := make([]*server, 0, len(m.servers))
	for _, s := range m.servers {
		list = append(list, s)
	}
	m.mu.Unlock()
	out := make([]ServerState, 0, len(list))
	for _, s := range list {
		out = append(out, s.snapshot())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Config.Name < out[j].Config.Name })
	return out
}

// State returns the state of the server called name.
func (m *Manager) State(name string) (ServerState, bool) {
	m.mu.Lock()
	s := m.servers[name]
	m.mu.Unlock()
	if s == nil {
		return ServerState{}, false
	}
	return s.snapshot(), true
}

// Subscribe calls fn with a server's new state after each change (status,
// tools, prompts, resources), from a background goroutine, never under the
// Manager's lock; fn must not block for long (a view posts to its own queue).
// cancel stops the calls.
func (m *Manager) Subscribe(fn func(ServerState)) (cancel func()) {
	m.mu.Lock()
	id := m.nextSub
	m.nextSub++
	m.subs[id] = fn
	m.mu.Unlock()
	return func() {
		m.mu.Lock()
		delete(m.subs, id)
		m.mu.Unlock()
	}
}

// notify tells the subscribers and WaitReady about st.
func (m *Manager) notify(st ServerState) {
	m.mu.Lock()
	fns := make([]func(ServerState), 0, len(m.subs))
	ids := make([]int, 0, len(m.subs))
	for id := range m.subs {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	for _, id := range ids {
		fns = append(fns, m.subs[id])
	}
	close(m.changed)
	m.changed = make(chan struct{})
	m.mu.Unlock()
	for _, fn := range fns {
		fn(st)
	}
}

// WaitReady blocks until every started server has been ready or has failed at
// least once (a server still retrying counts as settled after its first
// failure), or timeout passes, or ctx ends — as `pincer run` waits before its
// first model call (Claude Code's MCP_TIMEOUT). It reports whether all settled.
func (m *Manager) WaitReady(ctx context.Context, timeout time.Duration) bool {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		m.mu.Lock()
		ch := m.changed
		pending := false
		for _, s := range m.servers {
			if !s.isSettled() {
				pending = true
			}
		}
		m.mu.Unlock()
		if !pending {
			return true
		}
		select {
		case <-ch:
		case <-t.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// Close stops every server (stdio servers' process groups get SIGTERM, then
// SIGKILL after 2 s), removes their tools and waits for them. The Manager
// starts nothing after it.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	list := make([]*server, 0, len(m.servers))
	for _, s := range m.servers {
		list = append(list, s)
	}
	m.mu.Unlock()
	m.cancel()
	var wg sync.WaitGroup
	for _, s := range list {
		wg.Add(1)
		go func() { defer wg.Done(); s.stop() }()
	}
	wg.Wait()
	return nil
}

// errClosed is returned by calls made after Close.
var errClosed = errors.New("MCP servers are shut down")
