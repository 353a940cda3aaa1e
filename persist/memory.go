package persist

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"pincer/core/event"
	"pincer/core/message"
)

// Memory is a Store kept entirely in memory (maps under one mutex), for tests and
// throwaway sessions. It keeps the same contract as Badger: records are held as
// the same JSON Badger writes, so every read returns a fresh copy that callers may
// change freely, with the same values Badger would return.
type Memory struct {
	now func() time.Time // clock for CreatedAt and leases; tests replace it

	mu       sync.Mutex
	closed   bool
	sessions map[string][]byte
	messages map[string][][]byte // index i holds Seq i+1
	events   map[string]*memEvents
	leases   map[string]Lease
	extra    memExtra // audit trail and session rules (memory_audit.go)
	notify   notifier // wakes WaitEvents (notify.go)
}

// memEvents is one session's events: sorted sequences and their encodings.
type memEvents struct {
	seqs []uint64
	data map[uint64][]byte
}

var _ Store = (*Memory)(nil)

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory {
	return &Memory{
		now:      time.Now,
		sessions: map[string][]byte{},
		messages: map[string][][]byte{},
		events:   map[string]*memEvents{},
		leases:   map[string]Lease{},
	}
}

// lock takes the mutex unless ctx is done or the store is closed; on nil error the
// caller must unlock.
func (s *Memory) lock(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	return nil
}

// PutSession creates or replaces a session record.
func (s *Memory) PutSession(ctx context.Context, sess Session) error {
	b, err := encodeSession(sess)
	if err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.sessions[sess.ID] = b
	return nil
}

// GetSession returns a session or an error wrapping ErrNotFound.
func (s *Memory) GetSession(ctx context.Context, id string) (Session, error) {
	if err := s.lock(ctx); err != nil {
		return Session{}, err
	}
	defer s.mu.Unlock()
	b, ok := s.sessions[id]
	if !ok {
		return Session{}, fmt.Errorf("persist: session %q: %w", id, ErrNotFound)
	}
	sess, err := decodeSession(b)
	if err != nil {
		return Session{}, fmt.Errorf("persist: session %q: %w", id, ErrCorrupt)
	}
	return sess, nil
}

// ListSessions returns up to limit sessions, newest UpdatedAt first (ties by id);
// limit <= 0 means all. Undecodable records are skipped and reported with a
// *CorruptError next to the others.
func (s *Memory) ListSessions(ctx context.Context, limit int) ([]Session, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	out := make([]Session, 0, len(s.sessions))
	bad := 0
	for _, b := range s.sessions {
		sess, err := decodeSession(b)
		if err != nil {
			bad++
			continue
		}
		out = append(out, sess)
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		ti, tj := timeNanos(out[i].UpdatedAt), timeNanos(out[j].UpdatedAt)
		if ti != tj {
			return ti > tj
		}
		return out[i].ID < out[j].ID
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, corruptErr("session", "", bad)
}

// AppendMessage stores m as the session's next message and returns it with Seq
// set, and ID and CreatedAt filled in when they were empty.
func (s *Memory) AppendMessage(ctx context.Context, m message.Message) (message.Message, error) {
	if err := checkSessionID(m.SessionID); err != nil {
		return message.Message{}, err
	}
	if err := s.lock(ctx); err != nil {
		return message.Message{}, err
	}
	defer s.mu.Unlock()
	seq := uint64(len(s.messages[m.SessionID])) + 1
	m, b, err := prepareMessage(m, seq, s.now())
	if err != nil {
		return message.Message{}, err
	}
	s.messages[m.SessionID] = append(s.messages[m.SessionID], b)
	return m, nil
}

// ListMessages returns every message of a session in Seq order. Undecodable records
// are skipped and reported with a *CorruptError next to the others.
func (s *Memory) ListMessages(ctx context.Context, sessionID string) ([]message.Message, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	stored := slices.Clone(s.messages[sessionID]) // the values are never modified
	s.mu.Unlock()
	out, bad := decodeAll(stored, decodeMessage)
	return out, corruptErr("message", sessionID, bad)
}

// AppendEvent stores ev under (ev.SessionID, ev.Sequence); an existing sequence is
// refused with an error wrapping ErrDuplicate.
func (s *Memory) AppendEvent(ctx context.Context, ev event.Event) error {
	b, err := encodeEvent(ev)
	if err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	evs := s.events[ev.SessionID]
	if evs == nil {
		evs = &memEvents{data: map[uint64][]byte{}}
		s.events[ev.SessionID] = evs
	}
	i, found := slices.BinarySearch(evs.seqs, ev.Sequence)
	if found {
		return fmt.Errorf("persist: event %d of session %s: %w", ev.Sequence, ev.SessionID, ErrDuplicate)
	}
	evs.seqs = slices.Insert(evs.seqs, i, ev.Sequence)
	evs.data[ev.Sequence] = b
	s.notify.notify(ev.SessionID)
	return nil
}

// ListEvents returns up to limit events of a session with Sequence > after, in
// order (limit <= 0: all). Undecodable records are skipped and reported with a
// *CorruptError next to the others.
func (s *Memory) ListEvents(ctx context.Context, sessionID string, after uint64, limit int) ([]event.Event, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	evs := s.events[sessionID]
	if evs == nil {
		return []event.Event{}, nil
	}
	i, found := slices.BinarySearch(evs.seqs, after)
	if found {
		i++
	}
	var out []event.Event
	bad := 0
	for _, seq := range evs.seqs[i:] {
		if limit > 0 && len(out) == limit {
			break
		}
		ev, err := decodeEvent(evs.data[seq])
		if err != nil {
			bad++
			continue
		}
		out = append(out, ev)
	}
	if out == nil {
		out = []event.Event{}
	}
	return out, corruptErr("event", sessionID, bad)
}

// LastEventSequence returns the highest stored sequence of a session, 0 if none.
func (s *Memory) LastEventSequence(ctx context.Context, sessionID string) (uint64, error) {
	if err := s.lock(ctx); err != nil {
		return 0, err
	}
	defer s.mu.Unlock()
	if evs := s.events[sessionID]; evs != nil && len(evs.seqs) > 0 {
		return evs.seqs[len(evs.seqs)-1], nil
	}
	return 0, nil
}

// AcquireLease gives the session to owner for ttl unless another owner's lease is
// live; it returns whether owner holds it and the lease that holds it.
func (s *Memory) AcquireLease(ctx context.Context, sessionID, owner string, ttl time.Duration) (bool, Lease, error) {
	if err := checkLease(sessionID, owner); err != nil {
		return false, Lease{}, err
	}
	if err := checkTTL(ttl); err != nil {
		return false, Lease{}, err
	}
	if err := s.lock(ctx); err != nil {
		return false, Lease{}, err
	}
	defer s.mu.Unlock()
	cur, found := s.leases[sessionID]
	ok, l := decideAcquire(cur, found, sessionID, owner, ttl, s.now())
	if ok {
		s.leases[sessionID] = l
	}
	return ok, l, nil
}

// RenewLease extends owner's live lease by ttl from now; false when owner does not
// hold it (any more).
func (s *Memory) RenewLease(ctx context.Context, sessionID, owner string, ttl time.Duration) (bool, error) {
	if err := checkLease(sessionID, owner); err != nil {
		return false, err
	}
	if err := checkTTL(ttl); err != nil {
		return false, err
	}
	if err := s.lock(ctx); err != nil {
		return false, err
	}
	defer s.mu.Unlock()
	cur, found := s.leases[sessionID]
	ok, l := decideRenew(cur, found, sessionID, owner, ttl, s.now())
	if ok {
		s.leases[sessionID] = l
	}
	return ok, nil
}

// ReleaseLease frees the session if owner holds it; otherwise it does nothing.
func (s *Memory) ReleaseLease(ctx context.Context, sessionID, owner string) error {
	if err := checkLease(sessionID, owner); err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if cur, found := s.leases[sessionID]; found && cur.Owner == owner {
		delete(s.leases, sessionID)
	}
	return nil
}

// Close drops nothing but makes every later call fail with ErrClosed.
func (s *Memory) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}
