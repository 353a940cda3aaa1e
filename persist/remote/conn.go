package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"

	"pincer/persist"
	"pincer/persist/internal/record"
)

// Client is the Store of a process that does not own the store directory: every
// method is a request to the store daemon over its Unix socket (protocol in
// proto.go). Open it with Open.
//
// When the daemon goes away (it was killed, or it exited while idle) a request
// that fails on the connection starts a new daemon and is sent once more, marked
// as a retry, which the daemon answers idempotently (an append that the lost
// attempt stored is not stored again). A background Attach request tells the
// daemon this client is alive, and is made again after a restart with the leases
// the client holds. Safe for concurrent use.
type Client struct {
	opts Options
	id   string // "pid:<pid>/<random>"
	hc   *http.Client
	now  func() time.Time

	ctx    context.Context // ends at Close: stops the attach loop
	cancel context.CancelFunc

	startMu  sync.Mutex    // one start of the daemon at a time in this process
	attached chan struct{} // closed once the first Attach is answered
	attachWG sync.WaitGroup

	tokenMu       sync.Mutex
	token         string // the daemon's token as last read (clientToken)
	attachRefused bool   // the last Attach was refused (401): read the token again; attachLoop only

	mu     sync.Mutex
	closed bool
	leases map[persist.Lease]struct{} // held leases (SessionID and Owner), sent on re-attach
}

// Options say where the daemon listens and how to start one.
type Options struct {
	// Socket is the path of the daemon's Unix socket.
	Socket string
	// Token is the daemon's token file (NewDaemonToken), read by the client and
	// sent with every request; "" is TokenFor(Socket).
	Token string
	// Start is called, under a lock of this process, when nothing answers on
	// Socket: at Open and whenever the daemon went away. It returns once a
	// daemon serves there (persist/daemon.Starter starts one detached), or the
	// reason none does. nil: never start one, only connect.
	Start func(ctx context.Context) error
}

// Open returns a Client of the daemon at opts.Socket, starting the daemon
// first (opts.Start) when none answers there. When one does (the common case),
// it costs one connect on the socket: no request is waited for.
func Open(ctx context.Context, opts Options) (*Client, error) {
	if opts.Token == "" {
		opts.Token = TokenFor(opts.Socket)
	}
	c := &Client{opts: opts, id: fmt.Sprintf("pid:%d/%s", os.Getpid(), record.NewMessageID()),
		now: time.Now, attached: make(chan struct{}), leases: map[persist.Lease]struct{}{}}
	socket := opts.Socket
	c.hc = &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", socket)
		},
		MaxIdleConnsPerHost: 16,
		IdleConnTimeout:     time.Minute,
		DisableCompression:  true,
	}}
	if err := c.ensureDaemon(ctx); err != nil {
		return nil, err
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	c.attachWG.Add(1)
	go c.attachLoop()
	return c, nil
}

// ensureDaemon makes sure a daemon answers on the socket, starting one
// (opts.Start) if needed.
func (c *Client) ensureDaemon(ctx context.Context) error {
	c.startMu.Lock()
	defer c.startMu.Unlock()
	if CanDial(c.opts.Socket) {
		return nil
	}
	if c.opts.Start == nil {
		return fmt.Errorf("no store daemon answers on %s", c.opts.Socket)
	}
	return c.opts.Start(ctx)
}

// CanDial reports whether something accepts connections on the socket.
func CanDial(socket string) bool {
	conn, err := net.DialTimeout("unix", socket, time.Second)
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// SetClock makes the client read the time it stamps on appends (CreatedAt,
// Timestamp, audit Time) from now; for tests, before the client is shared.
func (c *Client) SetClock(now func() time.Time) { c.now = now }

// ID is the client's id as the daemon knows it.
func (c *Client) ID() string { return c.id }

// Close ends the client: its Attach ends (the daemon releases any lease it still
// holds) and every later call fails with persist.ErrClosed.
func (c *Client) Close() error {
	c.mu.Lock()
	already := c.closed
	c.closed = true
	c.mu.Unlock()
	if already {
		return nil
	}
	c.cancel()
	c.attachWG.Wait()
	c.hc.CloseIdleConnections()
	return nil
}

// connError is a failure to reach the daemon or to read its answer: the
// daemon went away. The call is sent again once a daemon answers.
type connError struct {
	err     error
	closing bool // the daemon answered that it is shutting down
}

// Error names the connection failure.
func (e *connError) Error() string { return "store daemon connection: " + e.err.Error() }

// Unwrap returns the transport's error.
func (e *connError) Unwrap() error { return e.err }

// call sends one request and decodes its result into out (when not nil). A
// connection failure starts the daemon again and retries (maxRetries times).
func (c *Client) call(ctx context.Context, method string, args *wireArgs, out any) error {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return persist.ErrClosed
	}
	err := c.do(ctx, method, args, out, false)
	var ce *connError
	for attempt := 1; errors.As(err, &ce) && ctx.Err() == nil; attempt++ {
		if attempt > maxRetries {
			return fmt.Errorf("persist: %s: lost the store daemon %d times: %w", method, attempt, ce.err)
		}
		if ce.closing { // give it the moment it needs to let go of the socket
			time.Sleep(time.Duration(attempt) * 20 * time.Millisecond)
		}
		// Pooled connections to the daemon that went away are dead too.
		c.hc.CloseIdleConnections()
		if serr := c.ensureDaemon(ctx); serr != nil {
			return fmt.Errorf("persist: %s: the store daemon went away and could not be started again: %w", method, serr)
		}
		err = c.do(ctx, method, args, out, true)
	}
	return err
}

// maxRetries is how often a call is sent again after losing the daemon.
const maxRetries = 2

// maxReply bounds a reply body (a whole long session's messages).
const maxReply = 1 << 30

// do sends one request.
func (c *Client) do(ctx context.Context, method string, args *wireArgs, out any, retry bool) error {
	body, err := json.Marshal(args)
	if err != nil {
		return fmt.Errorf("persist: %s: encode request: %w", method, err)
	}
	var resp *http.Response
	for reload := false; ; reload = true {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://pincer-store"+pathPrefix+method, bytes.NewReader(body))
		if err != nil {
			return err
		}
		c.header(req, retry, reload)
		resp, err = c.hc.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return &connError{err: err}
		}
		if resp.StatusCode != http.StatusUnauthorized || reload {
			break
		}
		// A daemon started since the token was read has a new one: read it again once.
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	defer resp.Body.Close()
	if err := checkProtocol(resp); err != nil {
		return err
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxReply))
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &connError{err: err}
	}
	var rep wireReply
	if err := json.Unmarshal(b, &rep); err != nil {
		return &connError{err: fmt.Errorf("unreadable reply to %s: %v", method, err)}
	}
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusServiceUnavailable: // shutting down: the next daemon answers
		return &connError{err: rep.Error.decode(), closing: true}
	default:
		if rep.Error == nil {
			return fmt.Errorf("persist: %s: store daemon answered %s", method, resp.Status)
		}
		return rep.Error.decode()
	}
	if raw, ok := out.(*json.RawMessage); ok { // the caller decodes it (ListEvents): checked once, above
		*raw = rep.Result
	} else if out != nil && len(rep.Result) > 0 {
		if err := json.Unmarshal(rep.Result, out); err != nil {
			return fmt.Errorf("persist: %s: decode reply: %w", method, err)
		}
	}
	return rep.Error.decode()
}

func (c *Client) header(req *http.Request, retry, reloadToken bool) {
	req.Header.Set(hdrProtocol, ProtocolVersion)
	req.Header.Set(hdrToken, c.clientToken(reloadToken))
	req.Header.Set(hdrClient, c.id)
	req.Header.Set("Content-Type", "application/json")
	if retry {
		req.Header.Set(hdrRetry, "1")
	}
}

// checkProtocol refuses a daemon of another protocol version.
func checkProtocol(resp *http.Response) error {
	v := resp.Header.Get(hdrProtocol)
	if v == ProtocolVersion {
		return nil
	}
	pid, _ := strconv.Atoi(resp.Header.Get(hdrPID))
	return &ProtocolError{Theirs: v, Ours: ProtocolVersion, PID: pid, Version: resp.Header.Get(hdrVersion)}
}

// noteLease records a lease this client holds (or no longer holds).
func (c *Client) noteLease(sessionID, owner string, held bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := persist.Lease{SessionID: sessionID, Owner: owner}
	if held {
		c.leases[k] = struct{}{}
	} else {
		delete(c.leases, k)
	}
}

// heldLeases lists the leases this client holds.
func (c *Client) heldLeases() []persist.Lease {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]persist.Lease, 0, len(c.leases))
	for l := range c.leases {
		out = append(out, l)
	}
	return out
}

// waitAttached waits (briefly) for the first Attach, so that a lease taken next
// is released by the daemon if this process dies.
func (c *Client) waitAttached(ctx context.Context) {
	t := time.NewTimer(2 * time.Second)
	defer t.Stop()
	select {
	case <-c.attached:
	case <-ctx.Done():
	case <-t.C: // the lease's TTL still covers a crash
	}
}

// attachLoop keeps an Attach request open for the life of the client, starting
// the daemon again when it goes away.
func (c *Client) attachLoop() {
	defer c.attachWG.Done()
	var once sync.Once
	backoff := 20 * time.Millisecond
	for c.ctx.Err() == nil {
		start := time.Now()
		err := c.attachOnce(func() { once.Do(func() { close(c.attached) }) })
		if c.ctx.Err() != nil {
			return
		}
		var pe *ProtocolError
		if errors.As(err, &pe) {
			return // every call says so; nothing to attach to
		}
		if time.Since(start) > 5*time.Second {
			backoff = 20 * time.Millisecond
		}
		c.hc.CloseIdleConnections() // those to a daemon that went away are dead
		if c.ensureDaemon(c.ctx) != nil || err != nil {
			select {
			case <-c.ctx.Done():
				return
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, 2*time.Second)
		}
	}
}

// attachOnce makes one Attach request and waits until it ends.
func (c *Client) attachOnce(answered func()) error {
	body, _ := json.Marshal(wireArgs{Leases: c.heldLeases()})
	req, err := http.NewRequestWithContext(c.ctx, http.MethodPost, "http://pincer-store"+pathPrefix+"Attach", bytes.NewReader(body))
	if err != nil {
		return err
	}
	c.header(req, false, c.attachRefused)
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if err := checkProtocol(resp); err != nil {
		return err
	}
	c.attachRefused = resp.StatusCode == http.StatusUnauthorized
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("attach: %s", resp.Status)
	}
	answered()
	_, err = io.Copy(io.Discard, resp.Body)
	return err
}
