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

// SequencingStore is a Store that numbers events itself. When the log's store is
// one, the store (the one process that owns it) assigns sequences, so logs in
// several processes append to one session without forking its numbering.
type SequencingStore interface {
	Store
	// AppendEventNext stores ev as the session's next event, setting Sequence
	// atomically in the store, keeps ev.Timestamp, and returns the stored event.
	AppendEventNext(ctx context.Context, ev Event) (Event, error)
}

// WaitingStore is a Store that can wait for a session's events. When the log's
// store is one, Follow waits through it and so sees appends made by any process.
type WaitingStore interface {
	Store
	// WaitEvents returns nil as soon as the session has an event with a sequence
	// greater than after, or ctx's error when ctx ends first.
	WaitEvents(ctx context.Context, sessionID string, after uint64) error
}

// Log is the session log: it numbers events per session from 1 with no gaps, stores
// them, and wakes readers waiting for more. Appends to one session are serialised, so
// the stored order is the sequence order. Safe for concurrent use.
//
// Over a SequencingStore the store numbers the events (so several logs, in several
// processes, may append to one session); over a WaitingStore Follow sees every
// append made through the store. Over a plain Store the log numbers events itself
// (from LastEventSequence, once per session) and only its own appends wake Follow.
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
	ev.Timestamp = time.Time{}
	return l.Copy(ctx, ev)
}

// Copy is Append keeping ev's Timestamp when it has one (the current UTC
// time when zero): a branch session's copies of its origin's events
// (app.inheritEvents) keep the time they happened.
func (l *Log) Copy(ctx context.Context, ev Event) (Event, error) {
	if ev.Timestamp.IsZero() {
		ev.Timestamp = l.now().UTC()
	}
	if ev.SessionID == "" {
		return Event{}, fmt.Errorf("append %s: event has no session", ev.Type)
	}
	if ss, ok := l.store.(SequencingStore); ok {
		ev.Sequence = 0
		stored, err := ss.AppendEventNext(ctx, ev)
		if err != nil {
			return Event{}, fmt.Errorf("append %s: %w", ev.Type, err)
		}
		ev.Sequence, ev.Timestamp = stored.Sequence, stored.Timestamp
		l.mu.Lock()
		l.wakeLocked(ev.SessionID)
		l.mu.Unlock()
		return ev, nil
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
	if err := l.store.AppendEvent(ctx, ev); err != nil {
		return Event{}, fmt.Errorf("append %s: %w", ev.Type, err)
	}
	l.next[ev.SessionID] = seq + 1
	l.wakeLocked(ev.SessionID)
	return ev, nil
}

// wakeLocked wakes the session's waiters; l.mu is held.
func (l *Log) wakeLocked(sessionID string) {
	for _, w := range l.waiters[sessionID] {
		close(w)
	}
	delete(l.waiters, sessionID)
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
// cleanly) or ctx ends (ctx.Err()). Over a WaitingStore any append to the session,
// by any process, wakes it; otherwise only appends through this Log do.
func (l *Log) Follow(ctx context.Context, sessionID string, after uint64, fn func(Event) error) error {
	ws, waiting := l.store.(WaitingStore)
	for {
		var ch <-chan struct{}
		if !waiting {
			ch = l.wait(sessionID)
		}
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
		if waiting {
			if err := ws.WaitEvents(ctx, sessionID, after); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				return err
			}
			continue
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

// Wait returns nil as soon as the session has an event with a sequence greater
// than after, or ctx's error when ctx ends first: a reader that reads at its
// own pace (Read with a limit, then Wait) rather than Follow's callback. Over a
// WaitingStore an append by any process wakes it; otherwise only appends
// through this Log do.
func (l *Log) Wait(ctx context.Context, sessionID string, after uint64) error {
	if ws, ok := l.store.(WaitingStore); ok {
		if err := ws.WaitEvents(ctx, sessionID, after); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		return nil
	}
	ch := l.wait(sessionID) // taken before the check, so no append is missed
	last, err := l.store.LastEventSequence(ctx, sessionID)
	if err != nil {
		return err
	}
	if last > after {
		return nil
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-ch:
		return nil
	}
}

// LastSequence returns the sequence of the session's last stored event (0:
// none).
func (l *Log) LastSequence(ctx context.Context, sessionID string) (uint64, error) {
	return l.store.LastEventSequence(ctx, sessionID)
}
