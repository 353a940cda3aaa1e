// Package memory is the persist.Store kept in memory, for tests and throwaway
// sessions: the contract of persist.Store (the suite in persist/storetest runs
// against it) over maps under one mutex, holding records as the same JSON
// persist/badger writes, so it returns exactly the values Badger would.
package memory

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/persist"
	"pincer/persist/internal/record"
)

// Store is a persist.Store kept entirely in memory (maps under one mutex), for
// tests and throwaway sessions. It keeps the same contract as persist/badger:
// records are held as the same JSON Badger writes, so every read returns a
// fresh copy that callers may change freely, with the same values Badger would
// return.
type Store struct {
	now func() time.Time // clock for CreatedAt and leases; tests replace it

	mu          sync.Mutex
	closed      bool
	sessions    map[string][]byte
	messages    map[string][][]byte // index i holds Seq i+1
	events      map[string]*memEvents
	leases      map[string]persist.Lease
	extra       memExtra          // audit trail and session rules (audit.go)
	prompts     memPrompts        // prompt history and drafts (prompts.go)
	checkpoints memCheckpoints    // checkpoints and blobs (checkpoints.go)
	candidates  map[string][]byte // memory and skill candidates by id (candidates.go)
	notify      record.Notifier   // wakes WaitEvents (next.go)
}

// memEvents is one session's events: sorted sequences and their encodings.
type memEvents struct {
	seqs []uint64
	data map[uint64][]byte
}

var _ persist.Store = (*Store)(nil)

// New returns an empty in-memory store.
func New() *Store {
	return &Store{
		now:      time.Now,
		sessions: map[string][]byte{},
		messages: map[string][][]byte{},
		events:   map[string]*memEvents{},
		leases:   map[string]persist.Lease{},
	}
}

// lock takes the mutex unless ctx is done or the store is closed; on nil error the
// caller must unlock.
func (s *Store) lock(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return persist.ErrClosed
	}
	return nil
}

// PutSession creates or replaces a session record.
func (s *Store) PutSession(ctx context.Context, sess persist.Session) error {
	b, err := record.EncodeSession(sess)
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

// GetSession returns a session or an error wrapping persist.ErrNotFound.
func (s *Store) GetSession(ctx context.Context, id string) (persist.Session, error) {
	if err := s.lock(ctx); err != nil {
		return persist.Session{}, err
	}
	defer s.mu.Unlock()
	b, ok := s.sessions[id]
	if !ok {
		return persist.Session{}, fmt.Errorf("persist: session %q: %w", id, persist.ErrNotFound)
	}
	sess, err := record.DecodeSession(b)
	if err != nil {
		return persist.Session{}, fmt.Errorf("persist: session %q: %w", id, persist.ErrCorrupt)
	}
	return sess, nil
}

// ListSessions returns up to limit sessions, newest UpdatedAt first (ties by id);
// limit <= 0 means all. Undecodable records are skipped and reported with a
// *CorruptError next to the others.
func (s *Store) ListSessions(ctx context.Context, limit int) ([]persist.Session, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	out := make([]persist.Session, 0, len(s.sessions))
	bad := 0
	for _, b := range s.sessions {
		sess, err := record.DecodeSession(b)
		if err != nil {
			bad++
			continue
		}
		out = append(out, sess)
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		ti, tj := record.TimeNanos(out[i].UpdatedAt), record.TimeNanos(out[j].UpdatedAt)
		if ti != tj {
			return ti > tj
		}
		return out[i].ID < out[j].ID
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, record.CorruptErr("session", "", bad)
}

// AppendMessage stores m as the session's next message and returns it with Seq
// set, and ID and CreatedAt filled in when they were empty.
func (s *Store) AppendMessage(ctx context.Context, m message.Message) (message.Message, error) {
	if err := record.CheckSessionID(m.SessionID); err != nil {
		return message.Message{}, err
	}
	if err := s.lock(ctx); err != nil {
		return message.Message{}, err
	}
	defer s.mu.Unlock()
	seq := uint64(len(s.messages[m.SessionID])) + 1
	m, b, err := record.PrepareMessage(m, seq, s.now())
	if err != nil {
		return message.Message{}, err
	}
	s.messages[m.SessionID] = append(s.messages[m.SessionID], b)
	return m, nil
}

// ListMessages returns every message of a session in Seq order. Undecodable records
// are skipped and reported with a *CorruptError next to the others.
func (s *Store) ListMessages(ctx context.Context, sessionID string) ([]message.Message, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	stored := slices.Clone(s.messages[sessionID]) // the values are never modified
	s.mu.Unlock()
	out, bad := record.DecodeAll(stored, record.DecodeMessage)
	return out, record.CorruptErr("message", sessionID, bad)
}

// AppendEvent stores ev under (ev.SessionID, ev.Sequence); an existing sequence is
// refused with an error wrapping persist.ErrDuplicate.
func (s *Store) AppendEvent(ctx context.Context, ev event.Event) error {
	b, err := record.EncodeEvent(ev)
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
		return fmt.Errorf("persist: event %d of session %s: %w", ev.Sequence, ev.SessionID, persist.ErrDuplicate)
	}
	evs.seqs = slices.Insert(evs.seqs, i, ev.Sequence)
	evs.data[ev.Sequence] = b
	s.notify.Notify(ev.SessionID)
	return nil
}

// ListEvents returns up to limit events of a session with Sequence > after, in
// order (limit <= 0: all). Undecodable records are skipped and reported with a
// *CorruptError next to the others.
func (s *Store) ListEvents(ctx context.Context, sessionID string, after uint64, limit int) ([]event.Event, error) {
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
		ev, err := record.DecodeEvent(evs.data[seq])
		if err != nil {
			bad++
			continue
		}
		out = append(out, ev)
	}
	if out == nil {
		out = []event.Event{}
	}
	return out, record.CorruptErr("event", sessionID, bad)
}

// LastEventSequence returns the highest stored sequence of a session, 0 if none.
func (s *Store) LastEventSequence(ctx context.Context, sessionID string) (uint64, error) {
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
func (s *Store) AcquireLease(ctx context.Context, sessionID, owner string, ttl time.Duration) (bool, persist.Lease, error) {
	if err := record.CheckLease(sessionID, owner); err != nil {
		return false, persist.Lease{}, err
	}
	if err := record.CheckTTL(ttl); err != nil {
		return false, persist.Lease{}, err
	}
	if err := s.lock(ctx); err != nil {
		return false, persist.Lease{}, err
	}
	defer s.mu.Unlock()
	cur, found := s.leases[sessionID]
	ok, l := record.DecideAcquire(cur, found, sessionID, owner, ttl, s.now())
	if ok {
		s.leases[sessionID] = l
	}
	return ok, l, nil
}

// RenewLease extends owner's live lease by ttl from now; false when owner does not
// hold it (any more).
func (s *Store) RenewLease(ctx context.Context, sessionID, owner string, ttl time.Duration) (bool, error) {
	if err := record.CheckLease(sessionID, owner); err != nil {
		return false, err
	}
	if err := record.CheckTTL(ttl); err != nil {
		return false, err
	}
	if err := s.lock(ctx); err != nil {
		return false, err
	}
	defer s.mu.Unlock()
	cur, found := s.leases[sessionID]
	ok, l := record.DecideRenew(cur, found, sessionID, owner, ttl, s.now())
	if ok {
		s.leases[sessionID] = l
	}
	return ok, nil
}

// ReleaseLease frees the session if owner holds it; otherwise it does nothing.
func (s *Store) ReleaseLease(ctx context.Context, sessionID, owner string) error {
	if err := record.CheckLease(sessionID, owner); err != nil {
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

// Close drops nothing but makes every later call fail with persist.ErrClosed.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}
