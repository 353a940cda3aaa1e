package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"pincer/persist"
	"pincer/persist/internal/record"
)

// Server serves a persist.Store to Clients over a listener: the store daemon's
// half of the protocol in proto.go. It keeps, per client, the leases the
// client acquired; when the client's Attach request ends (its process exited or
// was killed) those leases are released at once and the turn the client left
// running is closed in the log (abandon.go). Safe for concurrent use.
type Server struct {
	store   persist.Store
	info    PingReply
	httpSrv *http.Server
	done    chan struct{} // closed by Close: ends Attach requests

	token string    // required in every request when set (RequireToken)
	log   io.Writer // SetLog; nil: nowhere

	mu       sync.Mutex
	closing  bool
	busy     int       // requests in flight, Attach included
	idleAt   time.Time // when busy last became 0
	clients  map[string]*clientState
	cleaning map[string]chan struct{} // sessions whose abandoned turn is being closed
}

// clientState is what the server knows of one client.
type clientState struct {
	attached int                        // open Attach requests
	leases   map[persist.Lease]struct{} // held leases: SessionID and Owner set, ExpiresAt zero
}

// NewServer returns a server of store. version is pincer's version and dir the
// store's directory, both reported by Ping.
func NewServer(store persist.Store, version, dir string) *Server {
	s := &Server{store: store, done: make(chan struct{}), idleAt: time.Now(),
		clients: map[string]*clientState{}, cleaning: map[string]chan struct{}{},
		info: PingReply{PID: os.Getpid(), Version: version, Protocol: ProtocolVersion, Store: dir}}
	s.httpSrv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	return s
}

// SetLog makes the server write one line to w for each thing it could not do
// on a client's behalf (see abandon.go). Call it before Serve.
func (s *Server) SetLog(w io.Writer) { s.log = w }

// logf writes one timestamped line to the log, if there is one.
func (s *Server) logf(format string, args ...any) {
	if s.log == nil {
		return
	}
	line := strings.ReplaceAll(fmt.Sprintf(format, args...), "\n", " ")
	fmt.Fprintf(s.log, "%s pincer store-daemon pid %d: %s\n", time.Now().Format(time.RFC3339), s.info.PID, line)
}

// Serve answers requests on l until Close; it returns nil after Close.
func (s *Server) Serve(l net.Listener) error {
	err := s.httpSrv.Serve(l)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// IdleFor reports how long no request has been in flight and no client attached
// (0 while busy).
func (s *Server) IdleFor() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy > 0 || s.closing {
		return 0
	}
	return time.Since(s.idleAt)
}

// CloseIfIdle closes the server when it has been idle for at least d, and
// reports whether it did. Requests arriving meanwhile are told to retry (503),
// which a Client does after starting a new daemon.
func (s *Server) CloseIfIdle(d time.Duration) bool {
	s.mu.Lock()
	if s.closing || s.busy > 0 || time.Since(s.idleAt) < d {
		s.mu.Unlock()
		return false
	}
	s.closing = true
	s.mu.Unlock()
	s.shutdown()
	return true
}

// Close stops serving: the listener and every connection are closed. The
// store is not closed.
func (s *Server) Close() error {
	s.mu.Lock()
	already := s.closing
	s.closing = true
	s.mu.Unlock()
	if already {
		return nil
	}
	s.shutdown()
	return nil
}

func (s *Server) shutdown() {
	close(s.done)
	_ = s.httpSrv.Close()
}

// enter counts a request in; false when the server is closing.
func (s *Server) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.busy++
	return true
}

func (s *Server) leave() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy--; s.busy == 0 {
		s.idleAt = time.Now()
	}
}

// maxBody bounds a request body: the largest value plus JSON escaping.
const maxBody = 4*record.MaxValue + 1<<20

// ServeHTTP answers one request of the protocol.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set(hdrProtocol, ProtocolVersion)
	h.Set(hdrPID, strconv.Itoa(s.info.PID))
	h.Set(hdrVersion, s.info.Version)
	if status, err := s.authorize(r); err != nil {
		writeReply(w, status, nil, err)
		return
	}
	method, ok := strings.CutPrefix(r.URL.Path, pathPrefix)
	if r.Method != http.MethodPost || !ok {
		writeReply(w, http.StatusNotFound, nil, errors.New("not a pincer store request"))
		return
	}
	if v := r.Header.Get(hdrProtocol); v != ProtocolVersion {
		writeReply(w, http.StatusConflict, nil, &ProtocolError{Theirs: v, Ours: ProtocolVersion})
		return
	}
	if !s.enter() {
		writeReply(w, http.StatusServiceUnavailable, nil, errors.New("the store daemon is shutting down"))
		return
	}
	defer s.leave()
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	var a wireArgs
	if err == nil {
		err = json.Unmarshal(body, &a)
	}
	if err != nil {
		writeReply(w, http.StatusBadRequest, nil, fmt.Errorf("bad request body: %v", err))
		return
	}
	client := r.Header.Get(hdrClient)
	if method == "Attach" {
		s.attach(w, r, client, a)
		return
	}
	result, err := s.dispatch(r.Context(), method, client, r.Header.Get(hdrRetry) == "1", a)
	if errors.Is(err, errUnknownMethod) {
		writeReply(w, http.StatusNotFound, nil, err)
		return
	}
	writeReply(w, http.StatusOK, result, err)
}

// rawResult is a result that is already the JSON of the reply's result (a
// store's records, listed as stored): writeReply puts it in as it is, with
// no encoding and no check (encoding/json would scan and copy it again).
type rawResult []byte

// writeReply writes a wireReply.
func writeReply(w http.ResponseWriter, status int, result any, err error) {
	rep := wireReply{Error: encodeError(err)}
	if raw, ok := result.(rawResult); ok {
		b := make([]byte, 0, len(raw)+64)
		b = append(append(b, `{"result":`...), raw...)
		if rep.Error != nil {
			e, _ := json.Marshal(rep.Error)
			b = append(append(b, `,"error":`...), e...)
		}
		b = append(b, '}')
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(b)
		return
	}
	if result != nil {
		b, merr := json.Marshal(result)
		if merr != nil {
			rep.Error = encodeError(fmt.Errorf("persist: encode reply: %w", merr))
		} else {
			rep.Result = b
		}
	}
	b, _ := json.Marshal(rep)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// attach holds the request open for as long as the client is connected; when
// it ends, the client's leases are released (see detach).
func (s *Server) attach(w http.ResponseWriter, r *http.Request, client string, a wireArgs) {
	if client == "" {
		writeReply(w, http.StatusBadRequest, nil, errors.New("attach needs a client id"))
		return
	}
	s.mu.Lock()
	cs := s.clientLocked(client)
	cs.attached++
	for _, l := range a.Leases {
		cs.leases[persist.Lease{SessionID: l.SessionID, Owner: l.Owner}] = struct{}{}
	}
	s.mu.Unlock()
	w.WriteHeader(http.StatusOK)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	select {
	case <-r.Context().Done():
		s.detach(client)
	case <-s.done: // shutting down: the client will attach to the next daemon
	}
}

// clientLocked returns the state of a client, creating it; s.mu is held.
func (s *Server) clientLocked(client string) *clientState {
	cs := s.clients[client]
	if cs == nil {
		cs = &clientState{leases: map[persist.Lease]struct{}{}}
		s.clients[client] = cs
	}
	return cs
}

// detach ends one Attach of a client; at the last one the client is gone and
// its leases are released, each abandoned turn closed.
func (s *Server) detach(client string) {
	s.mu.Lock()
	cs := s.clients[client]
	if cs == nil {
		s.mu.Unlock()
		return
	}
	if cs.attached--; cs.attached > 0 {
		s.mu.Unlock()
		return
	}
	delete(s.clients, client)
	s.mu.Unlock()
	for l := range cs.leases {
		s.abandon(l.SessionID, l.Owner)
	}
}

// track records that client holds (or, held false, no longer holds) a lease.
func (s *Server) track(client, sessionID, owner string, held bool) {
	if client == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := persist.Lease{SessionID: sessionID, Owner: owner}
	if held {
		s.clientLocked(client).leases[k] = struct{}{}
	} else if cs := s.clients[client]; cs != nil {
		delete(cs.leases, k)
	}
}

// waitCleaning waits until no abandoned turn of the session is being closed, so
// that a new turn's events come after the closing ones.
func (s *Server) waitCleaning(ctx context.Context, sessionID string) error {
	for {
		s.mu.Lock()
		ch := s.cleaning[sessionID]
		s.mu.Unlock()
		if ch == nil {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
