package persist

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"pincer/core/event"
	"pincer/core/message"
)

// errUnknownMethod is the error of a request for a method the server lacks.
var errUnknownMethod = errors.New("unknown store method")

// errMissing is the error of a request without the record its method needs.
func errMissing(method, what string) error {
	return fmt.Errorf("persist: %s: the request has no %s", method, what)
}

// dispatch runs one method on the store. retry is set when the client sends a
// request again after losing the connection: appends then first look for the
// record the lost attempt may have stored, and deleting a missing session
// succeeds, so that a retry never stores anything twice.
func (s *Server) dispatch(ctx context.Context, method, client string, retry bool, a wireArgs) (any, error) {
	st := s.store
	switch method {
	case "Ping":
		s.mu.Lock()
		info := s.info
		info.Clients = len(s.clients)
		s.mu.Unlock()
		return info, nil
	case "PutSession":
		if a.Session == nil {
			return nil, errMissing(method, "session")
		}
		return nil, st.PutSession(ctx, *a.Session)
	case "GetSession":
		return st.GetSession(ctx, a.ID)
	case "ListSessions":
		return st.ListSessions(ctx, a.Limit)
	case "DeleteSession":
		err := st.DeleteSession(ctx, a.ID)
		if retry && errors.Is(err, ErrNotFound) {
			err = nil // the lost attempt deleted it
		}
		return nil, err
	case "AppendMessage":
		if a.Message == nil {
			return nil, errMissing(method, "message")
		}
		if retry {
			if m, ok := s.storedMessage(ctx, *a.Message); ok {
				return m, nil
			}
		}
		return st.AppendMessage(ctx, *a.Message)
	case "ListMessages":
		return st.ListMessages(ctx, a.ID)
	case "AppendEvent":
		if a.Event == nil {
			return nil, errMissing(method, "event")
		}
		err := st.AppendEvent(ctx, *a.Event)
		if retry && errors.Is(err, ErrDuplicate) {
			if _, ok := s.storedEvent(ctx, *a.Event, a.Event.Sequence-1); ok {
				err = nil
			}
		}
		return nil, err
	case "AppendEventNext":
		if a.Event == nil {
			return nil, errMissing(method, "event")
		}
		if retry {
			if ev, ok := s.storedEvent(ctx, *a.Event, 0); ok {
				return appended{Sequence: ev.Sequence, Timestamp: ev.Timestamp}, nil
			}
		}
		ev, err := st.AppendEventNext(ctx, *a.Event)
		if err != nil {
			return nil, err
		}
		return appended{Sequence: ev.Sequence, Timestamp: ev.Timestamp}, nil
	case "ListEvents":
		return st.ListEvents(ctx, a.ID, a.After, a.Limit)
	case "LastEventSequence":
		return st.LastEventSequence(ctx, a.ID)
	case "WaitEvents":
		return s.waitEvents(ctx, a)
	case "AcquireLease":
		if err := s.waitCleaning(ctx, a.ID); err != nil {
			return nil, err
		}
		ok, l, err := st.AcquireLease(ctx, a.ID, a.Owner, a.TTL)
		if err == nil && ok {
			s.track(client, a.ID, a.Owner, true)
		}
		return leaseReply{OK: ok, Lease: l}, err
	case "RenewLease":
		ok, err := st.RenewLease(ctx, a.ID, a.Owner, a.TTL)
		if err == nil {
			s.track(client, a.ID, a.Owner, ok)
		}
		return leaseReply{OK: ok}, err
	case "ReleaseLease":
		if err := s.waitCleaning(ctx, a.ID); err != nil {
			return nil, err
		}
		err := st.ReleaseLease(ctx, a.ID, a.Owner)
		if err == nil {
			s.track(client, a.ID, a.Owner, false)
		}
		return nil, err
	case "AppendAudit":
		if a.Audit == nil {
			return nil, errMissing(method, "audit entry")
		}
		if retry && s.storedAudit(ctx, *a.Audit) {
			return nil, nil
		}
		return nil, st.AppendAudit(ctx, *a.Audit)
	case "ListAudit":
		return st.ListAudit(ctx, a.ID, a.Limit)
	case "PutSessionRules":
		return nil, st.PutSessionRules(ctx, a.ID, a.Rules)
	case "GetSessionRules":
		return st.GetSessionRules(ctx, a.ID)
	}
	return nil, fmt.Errorf("%w %q (this daemon speaks protocol %s)", errUnknownMethod, method, ProtocolVersion)
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
	if err != nil && !errors.Is(err, ErrCorrupt) {
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
	if err != nil && !errors.Is(err, ErrCorrupt) {
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
func (s *Server) storedAudit(ctx context.Context, e AuditEntry) bool {
	if e.Time.IsZero() {
		return false
	}
	entries, err := s.store.ListAudit(ctx, e.SessionID, retryWindow)
	if err != nil && !errors.Is(err, ErrCorrupt) {
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
