package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/persist"
)

// errUnknownMethod is the error of a request for a method the server lacks.
var errUnknownMethod = errors.New("unknown store method")

// errMissing is the error of a request without the record its method needs.
func errMissing(method, what string) error {
	return fmt.Errorf("persist: %s: the request has no %s", method, what)
}

// request is one call as a handler sees it: who calls (the Pincer-Client
// header), whether it is a retry after a lost connection (Pincer-Retry), and
// its arguments.
type request struct {
	client string
	retry  bool
	args   wireArgs
}

// handler runs one method of the protocol on the server's store and returns
// its result (encoded as the reply's result) and error (the reply's error).
type handler func(s *Server, ctx context.Context, r request) (any, error)

// methods is the protocol's dispatch table: the handler of each method by its
// name on the wire (POST /v1/<name>), one per Store method plus Ping. Attach
// is not here: it holds its request open (server.go). A retry (a request sent
// again after losing the connection) is answered idempotently: appends first
// look for the record the lost attempt may have stored, and deleting a missing
// session succeeds, so that a retry never stores anything twice.
var methods = map[string]handler{
	"Ping":       (*Server).ping,
	"PutSession": (*Server).putSession,
	"GetSession": func(s *Server, ctx context.Context, r request) (any, error) {
		return s.store.GetSession(ctx, r.args.ID)
	},
	"ListSessions": func(s *Server, ctx context.Context, r request) (any, error) {
		return s.store.ListSessions(ctx, r.args.Limit)
	},
	"DeleteSession": (*Server).deleteSession,
	"AppendMessage": (*Server).appendMessage,
	"ListMessages": func(s *Server, ctx context.Context, r request) (any, error) {
		return s.store.ListMessages(ctx, r.args.ID)
	},
	"AppendEvent":     (*Server).appendEvent,
	"AppendEventNext": (*Server).appendEventNext,
	"ListEvents":      (*Server).listEvents,
	"LastEventSequence": func(s *Server, ctx context.Context, r request) (any, error) {
		return s.store.LastEventSequence(ctx, r.args.ID)
	},
	"WaitEvents":   func(s *Server, ctx context.Context, r request) (any, error) { return s.waitEvents(ctx, r.args) },
	"AcquireLease": (*Server).acquireLease,
	"RenewLease":   (*Server).renewLease,
	"ReleaseLease": (*Server).releaseLease,
	"GetLease":     (*Server).getLease,
	"AppendAudit":  (*Server).appendAudit,
	"ListAudit": func(s *Server, ctx context.Context, r request) (any, error) {
		return s.store.ListAudit(ctx, r.args.ID, r.args.Limit)
	},
	"PutSessionRules": func(s *Server, ctx context.Context, r request) (any, error) {
		return nil, s.store.PutSessionRules(ctx, r.args.ID, r.args.Rules)
	},
	"GetSessionRules": func(s *Server, ctx context.Context, r request) (any, error) {
		return s.store.GetSessionRules(ctx, r.args.ID)
	},
	"AppendPrompt": (*Server).appendPrompt,
	"ListPrompts":  (*Server).listPrompts,
	"PutDraft":     (*Server).putDraft,
	"GetDraft":     (*Server).getDraft,

	"PutBlob":          (*Server).putBlob,
	"GetBlob":          (*Server).getBlob,
	"DeleteBlob":       (*Server).deleteBlob,
	"ListBlobs":        (*Server).listBlobs,
	"AppendCheckpoint": (*Server).appendCheckpoint,
	"ListCheckpoints":  (*Server).listCheckpoints,
	"DeleteCheckpoint": (*Server).deleteCheckpoint,

	"PutCandidate":         (*Server).putCandidate,
	"GetCandidate":         (*Server).getCandidate,
	"ListCandidates":       (*Server).listCandidates,
	"DecideCandidate":      (*Server).decideCandidate,
	"MarkCandidateApplied": (*Server).markCandidateApplied,
}

// dispatch runs one method through the table; an unknown method is an error
// wrapping errUnknownMethod.
func (s *Server) dispatch(ctx context.Context, method, client string, retry bool, a wireArgs) (any, error) {
	h, ok := methods[method]
	if !ok {
		return nil, fmt.Errorf("%w %q (this daemon speaks protocol %s)", errUnknownMethod, method, ProtocolVersion)
	}
	return h(s, ctx, request{client: client, retry: retry, args: a})
}

func (s *Server) ping(context.Context, request) (any, error) {
	s.mu.Lock()
	info := s.info
	info.Clients = len(s.clients)
	s.mu.Unlock()
	return info, nil
}

func (s *Server) putSession(ctx context.Context, r request) (any, error) {
	if r.args.Session == nil {
		return nil, errMissing("PutSession", "session")
	}
	return nil, s.store.PutSession(ctx, *r.args.Session)
}

func (s *Server) deleteSession(ctx context.Context, r request) (any, error) {
	err := s.store.DeleteSession(ctx, r.args.ID)
	if r.retry && errors.Is(err, persist.ErrNotFound) {
		err = nil // the lost attempt deleted it
	}
	return nil, err
}

func (s *Server) appendMessage(ctx context.Context, r request) (any, error) {
	if r.args.Message == nil {
		return nil, errMissing("AppendMessage", "message")
	}
	if r.retry {
		if m, ok := s.storedMessage(ctx, *r.args.Message); ok {
			return m, nil
		}
	}
	return s.store.AppendMessage(ctx, *r.args.Message)
}

func (s *Server) appendEvent(ctx context.Context, r request) (any, error) {
	ev := r.args.Event
	if ev == nil {
		return nil, errMissing("AppendEvent", "event")
	}
	err := s.store.AppendEvent(ctx, *ev)
	if r.retry && errors.Is(err, persist.ErrDuplicate) {
		if _, ok := s.storedEvent(ctx, *ev, ev.Sequence-1); ok {
			err = nil
		}
	}
	return nil, err
}

func (s *Server) appendEventNext(ctx context.Context, r request) (any, error) {
	if r.args.Event == nil {
		return nil, errMissing("AppendEventNext", "event")
	}
	if r.retry {
		if ev, ok := s.storedEvent(ctx, *r.args.Event, 0); ok {
			return appended{Sequence: ev.Sequence, Timestamp: ev.Timestamp}, nil
		}
	}
	ev, err := s.store.AppendEventNext(ctx, *r.args.Event)
	if err != nil {
		return nil, err
	}
	return appended{Sequence: ev.Sequence, Timestamp: ev.Timestamp}, nil
}

// listEvents answers with the stored records themselves when the store can
// list them so (persist.EventJSONLister: Badger), sent on unchanged
// (rawResult); otherwise with the decoded events, encoded again.
func (s *Server) listEvents(ctx context.Context, r request) (any, error) {
	if l, ok := s.store.(persist.EventJSONLister); ok {
		b, err := l.ListEventsJSON(ctx, r.args.ID, r.args.After, r.args.Limit)
		if b == nil {
			return nil, err
		}
		return rawResult(b), err
	}
	return s.store.ListEvents(ctx, r.args.ID, r.args.After, r.args.Limit)
}

func (s *Server) acquireLease(ctx context.Context, r request) (any, error) {
	a := r.args
	if err := s.waitCleaning(ctx, a.ID); err != nil {
		return nil, err
	}
	ok, l, err := s.store.AcquireLease(ctx, a.ID, a.Owner, a.TTL)
	if err == nil && ok {
		s.track(r.client, a.ID, a.Owner, true)
	}
	return leaseReply{OK: ok, Lease: l}, err
}

func (s *Server) renewLease(ctx context.Context, r request) (any, error) {
	a := r.args
	ok, err := s.store.RenewLease(ctx, a.ID, a.Owner, a.TTL)
	if err == nil {
		s.track(r.client, a.ID, a.Owner, ok)
	}
	return leaseReply{OK: ok}, err
}

func (s *Server) releaseLease(ctx context.Context, r request) (any, error) {
	a := r.args
	if err := s.waitCleaning(ctx, a.ID); err != nil {
		return nil, err
	}
	err := s.store.ReleaseLease(ctx, a.ID, a.Owner)
	if err == nil {
		s.track(r.client, a.ID, a.Owner, false)
	}
	return nil, err
}

func (s *Server) appendAudit(ctx context.Context, r request) (any, error) {
	if r.args.Audit == nil {
		return nil, errMissing("AppendAudit", "audit entry")
	}
	if r.retry && s.storedAudit(ctx, *r.args.Audit) {
		return nil, nil
	}
	return nil, s.store.AppendAudit(ctx, *r.args.Audit)
}

// waitResult is the answer to WaitEvents: Ready is false when the wait timed
// out with nothing new (the client asks again).
type waitResult struct {
	Ready bool `json:"ready"`
}

func (s *Server) waitEvents(ctx context.Context, a wireArgs) (any, error) {
	wait := a.Wait
	if wait <= 0 || wait > maxWait {
		wait = maxWait
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	go func() { // shutting down ends the wait too: the client asks the next daemon
		select {
		case <-s.done:
			cancel()
		case <-wctx.Done():
		}
	}()
	err := s.store.WaitEvents(wctx, a.ID, a.After)
	if err != nil && ctx.Err() == nil && wctx.Err() != nil {
		return waitResult{Ready: false}, nil
	}
	return waitResult{Ready: err == nil}, err
}

// retryWindow is how many of a session's newest records a retried append looks
// through for the one its lost attempt may have stored. The client waits for
// each append before the next, so the record is among the very last ones.
const retryWindow = 8

// storedMessage finds m (by ID, which the client always sets) among the
// session's newest messages.
func (s *Server) storedMessage(ctx context.Context, m message.Message) (message.Message, bool) {
	if m.ID == "" {
		return message.Message{}, false
	}
	msgs, err := s.store.ListMessages(ctx, m.SessionID)
	if err != nil && !errors.Is(err, persist.ErrCorrupt) {
		return message.Message{}, false
	}
	for i := len(msgs) - 1; i >= 0 && i >= len(msgs)-retryWindow; i-- {
		if msgs[i].ID == m.ID {
			return msgs[i], true
		}
	}
	return message.Message{}, false
}

// storedEvent finds ev (same content and timestamp, any sequence) among the
// session's events after from, or its newest ones when from is 0.
func (s *Server) storedEvent(ctx context.Context, ev event.Event, from uint64) (event.Event, bool) {
	if from == 0 {
		last, err := s.store.LastEventSequence(ctx, ev.SessionID)
		if err != nil {
			return event.Event{}, false
		}
		from = last - min(last, retryWindow)
	}
	evs, err := s.store.ListEvents(ctx, ev.SessionID, from, retryWindow)
	if err != nil && !errors.Is(err, persist.ErrCorrupt) {
		return event.Event{}, false
	}
	want := eventKey(ev)
	for _, got := range evs {
		if want != nil && bytes.Equal(eventKey(got), want) {
			return got, true
		}
	}
	return event.Event{}, false
}

// eventKey is an event's flat JSON without its sequence, nil if it cannot be encoded.
func eventKey(ev event.Event) []byte {
	ev.Sequence = 0
	ev.Timestamp = ev.Timestamp.UTC()
	b, err := json.Marshal(ev)
	if err != nil {
		return nil
	}
	return b
}

// storedAudit reports whether e (whose Time the client always sets) is among the
// session's newest audit entries.
func (s *Server) storedAudit(ctx context.Context, e persist.AuditEntry) bool {
	if e.Time.IsZero() {
		return false
	}
	entries, err := s.store.ListAudit(ctx, e.SessionID, retryWindow)
	if err != nil && !errors.Is(err, persist.ErrCorrupt) {
		return false
	}
	want, _ := json.Marshal(e)
	for _, got := range entries {
		if b, _ := json.Marshal(got); bytes.Equal(b, want) {
			return true
		}
	}
	return false
}
