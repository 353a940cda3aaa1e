package event

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Store is what the log needs from persistence. persist.Store satisfies it.
type Store interface {
	// AppendEvent stores ev under (ev.SessionID, ev.Sequence).
	AppendEvent(ctx context.Context, ev Event) error
	// ListEvents returns up to limit events of a session with Sequence > after, in
	// order; limit <= 0 means all.
	ListEvents(ctx context.Context, sessionID string, after uint64, limit int) ([]Event, error)
	// LastEventSequence returns the highest stored sequence of a session, 0 if none.
	LastEventSequence(ctx context.Context, sessionID string) (uint64, error)
}

// Log is the session log: it numbers events per session from 1 with no gaps, stores
// them, and wakes readers waiting for more. Appends to one session are serialised, so
// the stored order is the sequence order. Safe for concurrent use.
type Log struct {
	store Store
	now   func() time.Time

	mu      sync.Mutex
	next    map[string]uint64          // next sequence per session, loaded lazily
	waiters map[string][]chan struct{} // closed on the session's next append
}

// NewLog returns a log over store.
func NewLog(store Store) *Log {
	return &Log{store: store, now: time.Now,
		next: map[string]uint64{}, waiters: map[string][]chan struct{}{}}
}

// Append assigns ev the session's next sequence and the current UTC time, stores it,
// and wakes waiters. It returns the stored event. On a store error the sequence is
// not consumed.
func (l *Log) Append(ctx context.Context, ev Event) (Event, error) {
	if ev.SessionID == "" {
		return Event{}, fmt.Errorf("append %s: event has no session", ev.Type)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	seq, ok := l.next[ev.SessionID]
	if !ok {
		last, err := l.store.LastEventSequence(ctx, ev.SessionID)
		if err != nil {
			return Event{}, fmt.Errorf("append %s: %w", ev.Type, err)
		}
		seq = last + 1
	}
	ev.Sequence = seq
	ev.Timestamp = l.now().UTC()
	if err := l.store.AppendEvent(ctx, ev); err != nil {
		return Event{}, fmt.Errorf("append %s: %w", ev.Type, err)
	}
	l.next[ev.SessionID] = seq + 1
	for _, w := range l.waiters[ev.SessionID] {
		close(w)
	}
	delete(l.waiters, ev.SessionID)
	return ev, nil
}

// Emit builds an event of type t with payload p and appends it.
func (l *Log) Emit(ctx context.Context, t Type, sessionID, turnID string, p any) (Event, error) {
	ev, err := New(t, sessionID, turnID, p)
	if err != nil {
		return Event{}, err
	}
	return l.Append(ctx, ev)
}

// Read returns up to limit events with Sequence > after (limit <= 0: all).
func (l *Log) Read(ctx context.Context, sessionID string, after uint64, limit int) ([]Event, error) {
	return l.store.ListEvents(ctx, sessionID, after, limit)
}

// wait returns a channel closed at the session's next append. It must be taken
// before re-reading, so no append is missed between the read and the wait.
func (l *Log) wait(sessionID string) <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	ch := make(chan struct{})
	l.waiters[sessionID] = append(l.waiters[sessionID], ch)
	return ch
}

// Follow calls fn for every event of the session after the cursor, in order, then
// waits for more, until fn returns an error (returned, except ErrStop which ends it
// cleanly) or ctx ends (ctx.Err()). Only appends through this Log wake it.
func (l *Log) Follow(ctx context.Context, sessionID string, after uint64, fn func(Event) error) error {
	for {
		ch := l.wait(sessionID)
		evs, err := l.Read(ctx, sessionID, after, 0)
		if err != nil {
			return err
		}
		for _, ev := range evs {
			after = ev.Sequence
			if err := fn(ev); err != nil {
				if err == ErrStop {
					return nil
				}
				return err
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}

// ErrStop, returned by a Follow callback, ends Follow without an error.
var ErrStop = fmt.Errorf("stop following")
