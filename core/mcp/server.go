package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// server is one configured server and its connection loop.
type server struct {
	m   *Manager
	cfg ServerConfig

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	state   ServerState
	settled bool // ready or failed at least once (WaitReady)
	sess    *sdk.ClientSession
	proc    *stdioProcess
	tools   map[string]*Tool // by full name, while ready
	kick    chan error       // a call saw the connection fail: reconnect
}

func newServer(m *Manager, cfg ServerConfig) *server {
	ctx, cancel := context.WithCancel(m.ctx)
	s := &server{m: m, cfg: cfg, ctx: ctx, cancel: cancel, done: make(chan struct{}), kick: make(chan error, 1)}
	s.state = ServerState{Config: cfg, Status: StatusConnecting}
	return s
}

// start runs the connection loop, or records why the server does not start.
func (s *server) start() {
	if s.cfg.Broken != "" {
		close(s.done)
		s.set(func(st *ServerState) { st.Status, st.Reason, st.LastError = StatusFailed, s.cfg.Broken, s.cfg.Broken }, true)
		return
	}
	if err := CheckServerName(s.cfg.Name); err != nil {
		close(s.done)
		s.set(func(st *ServerState) { st.Status, st.Reason = StatusFailed, err.Error() }, true)
		return
	}
	if s.cfg.Disabled {
		close(s.done)
		s.set(func(st *ServerState) { st.Status, st.Reason = StatusDisabled, "disabled in your settings" }, true)
		return
	}
	if !s.cfg.Approved {
		close(s.done)
		s.set(func(st *ServerState) {
			st.Status, st.Reason = StatusNeedsApproval, "a project server starts once you approve it: "+Describe(s.cfg)
		}, true)
		return
	}
	s.set(func(st *ServerState) { st.Status = StatusConnecting }, false)
	go s.run()
}

// stop ends the loop, closes the connection and removes the tools.
func (s *server) stop() {
	s.cancel()
	<-s.done
	s.removeTools()
}

// snapshot is a copy of the state.
func (s *server) snapshot() ServerState {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.state
	st.Tools = append([]string(nil), st.Tools...)
	st.Prompts = append([]PromptInfo(nil), st.Prompts...)
	st.Resources = append([]ResourceInfo(nil), st.Resources...)
	return st
}

func (s *server) isSettled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settled || !s.cfg.Approved
}

// set changes the state under the lock and tells the Manager's subscribers.
func (s *server) set(change func(*ServerState), settle bool) {
	s.mu.Lock()
	change(&s.state)
	if settle {
		s.settled = true
	}
	st := s.state
	s.mu.Unlock()
	s.m.notify(st)
}

// run connects, serves until the connection ends, and reconnects with backoff
// until the server is stopped.
func (s *server) run() {
	defer close(s.done)
	opts := s.m.opts
	backoff := opts.MinBackoff
	for {
		wasReady, err := s.session()
		s.removeTools()
		if s.ctx.Err() != nil {
			return
		}
		if wasReady {
			backoff = opts.MinBackoff
		}
		reason := err.Error()
		s.set(func(st *ServerState) {
			st.Status, st.Reason, st.LastError = StatusFailed, fmt.Sprintf("%s; reconnecting in %s", reason, backoff), reason
			st.Tools, st.Prompts, st.Resources = nil, nil, nil
		}, true)
		select {
		case <-s.ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, opts.MaxBackoff)
		s.set(func(st *ServerState) { st.Status = StatusConnecting }, false)
	}
}

// session makes one connection and serves it until it ends; wasReady says it
// got as far as ready, err why it ended.
func (s *server) session() (wasReady bool, err error) {
	opts := s.m.opts
	tr, proc, err := transportFor(s.cfg, opts)
	if err != nil {
		return false, err
	}
	copts := &sdk.ClientOptions{
		ToolListChangedHandler:     func(context.Context, *sdk.ToolListChangedRequest) { go s.relist() },
		PromptListChangedHandler:   func(context.Context, *sdk.PromptListChangedRequest) { go s.relist() },
		ResourceListChangedHandler: func(context.Context, *sdk.ResourceListChangedRequest) { go s.relist() },
	}
	if proc == nil { // HTTP and SSE: a ping notices a server that went away
		copts.KeepAlive = opts.KeepAlive
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "pincer", Version: opts.ClientVersion}, copts)
	cctx, cancel := context.WithTimeout(s.ctx, opts.ConnectTimeout)
	defer cancel()
	sess, err := client.Connect(cctx, tr, &sdk.ClientSessionOptions{ProtocolVersion: protocolVersion})
	if err != nil {
		s.closeProc(proc)
		return false, connectError(err, cctx, proc, opts)
	}
	s.mu.Lock()
	s.sess, s.proc = sess, proc
	s.mu.Unlock()
	// Drain a kick left by a call on the previous connection.
	select {
	case <-s.kick:
	default:
	}
	if err := s.list(cctx, sess); err != nil {
		s.closeSession()
		return false, fmt.Errorf("listing: %w", err)
	}
	ended := make(chan error, 1)
	go func() { ended <- sess.Wait() }()
	select {
	case <-s.ctx.Done():
		s.closeSession()
		return true, s.ctx.Err()
	case err := <-ended:
		s.closeSession()
		return true, disconnected(err, proc)
	case err := <-s.kick:
		s.closeSession()
		return true, err
	}
}

// list fetches tools (and prompts, resources when the server has them),
// registers the tools and marks the server ready.
func (s *server) list(ctx context.Context, sess *sdk.ClientSession) error {
	caps := sess.InitializeResult().Capabilities
	if caps == nil {
		caps = &sdk.ServerCapabilities{}
	}
	var remote []*sdk.Tool
	if caps.Tools != nil {
		for t, err := range sess.Tools(ctx, nil) {
			if err != nil {
				return err
			}
			remote = append(remote, t)
		}
	}
	var prompts []PromptInfo
	if caps.Prompts != nil {
		for p, err := range sess.Prompts(ctx, nil) {
			if err != nil {
				return err
			}
			pi := PromptInfo{Name: p.Name, Description: p.Description}
			for _, a := range p.Arguments {
				pi.Arguments = append(pi.Arguments, PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
			}
			prompts = append(prompts, pi)
		}
	}
	var resources []ResourceInfo
	if caps.Resources != nil {
		for r, err := range sess.Resources(ctx, nil) {
			if err != nil {
				return err
			}
			resources = append(resources, ResourceInfo{URI: r.URI, Name: r.Name, Description: r.Description, MIMEType: r.MIMEType})
		}
	}
	names := s.register(sess, remote)
	instr := cutInstructions(sess.InitializeResult().Instructions)
	s.set(func(st *ServerState) {
		st.Status, st.Reason, st.LastError = StatusReady, "", ""
		st.Tools, st.Prompts, st.Resources, st.Instructions = names, prompts, resources, instr
	}, true)
	return nil
}

// relist fetches the lists again after a list_changed notification.
func (s *server) relist() {
	s.mu.Lock()
	sess := s.sess
	s.mu.Unlock()
	if sess == nil || s.ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, s.m.opts.ConnectTimeout)
	defer cancel()
	if err := s.list(ctx, sess); err != nil && s.ctx.Err() == nil {
		s.fail(sess, fmt.Errorf("relisting after a change: %w", err))
	}
}

// register puts the tools of remote in the registry (replacing the previous
// list: new and changed tools added, vanished ones removed) and returns their
// full names in the server's order. A name that sanitises to one already taken
// is skipped.
func (s *server) register(sess *sdk.ClientSession, remote []*sdk.Tool) []string {
	reg := s.m.opts.Registry
	next := map[string]*Tool{}
	var names []string
	for _, rt := range remote {
		t := newTool(s, sess, rt)
		name := t.spec.Name
		if _, dup := next[name]; dup {
			continue
		}
		next[name] = t
		names = append(names, name)
	}
	s.mu.Lock()
	if s.ctx.Err() != nil || s.sess != sess {
		s.mu.Unlock()
		return names
	}
	prev := s.tools
	s.tools = next
	s.mu.Unlock()
	for _, n := range names {
		reg.Add(next[n])
	}
	for n := range prev {
		if _, ok := next[n]; !ok {
			reg.Remove(n)
		}
	}
	return names
}

// removeTools takes the server's tools out of the registry.
func (s *server) removeTools() {
	s.mu.Lock()
	prev := s.tools
	s.tools = nil
	s.mu.Unlock()
	for n, t := range prev {
		if cur, ok := s.m.opts.Registry.Get(n); ok && cur == t {
			s.m.opts.Registry.Remove(n)
		}
	}
}

// fail reports that sess broke (a call's transport failed): the loop closes
// it and reconnects. A failure of an older session is ignored.
func (s *server) fail(sess *sdk.ClientSession, err error) {
	s.mu.Lock()
	current := s.sess == sess
	s.mu.Unlock()
	if !current {
		return
	}
	select {
	case s.kick <- err:
	default:
	}
}

// closeSession closes the current session and, for stdio, ends the process group.
func (s *server) closeSession() {
	s.mu.Lock()
	sess, proc := s.sess, s.proc
	s.sess, s.proc = nil, nil
	s.mu.Unlock()
	if sess == nil {
		return
	}
	if proc != nil {
		killProcessGroup(proc.cmd, syscall.SIGTERM)
	}
	closed := make(chan struct{})
	go func() { _ = sess.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(killGrace + time.Second):
	}
	s.closeProc(proc)
}

// closeProc kills what is left of a stdio server's process group and closes its log.
func (s *server) closeProc(p *stdioProcess) {
	if p == nil {
		return
	}
	killProcessGroup(p.cmd, syscall.SIGKILL)
	if p.log != nil {
		fmt.Fprintf(p.log, "--- %s: stopped\n", time.Now().Format(time.RFC3339))
		_ = p.log.Close()
	}
}

// connectError says why a connection attempt failed: "timed out after 10s
// (HINT)" when the server did not answer within opts.ConnectTimeout, the exit
// status when a stdio server died during it; a stdio server's last stderr
// lines and log file follow (stderrNote).
func connectError(err error, ctx context.Context, p *stdioProcess, opts Options) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		msg := "timed out after " + opts.ConnectTimeout.String()
		if opts.TimeoutHint != "" {
			msg += " (" + opts.TimeoutHint + ")"
		}
		return errors.New(msg + p.stderrNote())
	}
	if p != nil && p.cmd.ProcessState != nil {
		return fmt.Errorf("server exited (%s): %v%s", p.cmd.ProcessState, err, p.stderrNote())
	}
	return fmt.Errorf("%w%s", err, p.stderrNote())
}

// disconnected says why an established connection ended.
func disconnected(err error, p *stdioProcess) error {
	msg := "connection closed"
	if err != nil && !errors.Is(err, sdk.ErrConnectionClosed) {
		msg = "connection closed: " + err.Error()
	}
	if p != nil && p.cmd.ProcessState != nil {
		msg = "server exited (" + p.cmd.ProcessState.String() + ")"
	}
	return errors.New(msg + p.stderrNote())
}

// Describe is what a server runs or reaches, in one line: the command and
// its arguments (stdio) or the transport and URL.
func Describe(cfg ServerConfig) string {
	if cfg.Transport == TransportHTTP || cfg.Transport == TransportSSE {
		return string(cfg.Transport) + " " + cfg.URL
	}
	return strings.TrimSpace(cfg.Command + " " + strings.Join(cfg.Args, " "))
}
