package persist

import (
	"context"
	"fmt"
	"sync"

	"github.com/dgraph-io/badger/v4"

	"pincer/core/event"
)

// Sequencing and waiting, the store's half of the event log (core/event.Log uses
// them when a store has them, see event.SequencingStore and event.WaitingStore):
//
//   - AppendEventNext numbers an event itself: the next sequence of its session,
//     assigned and stored atomically by the one process that owns the store, so
//     any number of processes appending through it (the store daemon) never fork
//     or skip a session's numbering.
//   - WaitEvents returns as soon as a session has an event after a cursor; every
//     append (AppendEvent and AppendEventNext) wakes the waiters of its session.

// notifier wakes the waiters of a session. Its zero value is ready to use. All
// waiters of a session share one channel, closed (and forgotten) at the next
// append, so a waiter that gives up leaves nothing behind.
type notifier struct {
	mu sync.Mutex
	ch map[string]chan struct{}
}

// wait returns a channel closed at the session's next append. Take it before
// checking for events, so that no append is missed in between.
func (n *notifier) wait(sessionID string) <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.ch == nil {
		n.ch = map[string]chan struct{}{}
	}
	ch, ok := n.ch[sessionID]
	if !ok {
		ch = make(chan struct{})
		n.ch[sessionID] = ch
	}
	return ch
}

// notify wakes every waiter of the session.
func (n *notifier) notify(sessionID string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if ch, ok := n.ch[sessionID]; ok {
		close(ch)
		delete(n.ch, sessionID)
	}
}

// waitEvents is WaitEvents over a notifier and a way to read the last sequence.
func waitEvents(ctx context.Context, n *notifier, sessionID string, after uint64,
	last func(context.Context, string) (uint64, error)) error {
	if err := checkSessionID(sessionID); err != nil {
		return err
	}
	for {
		ch := n.wait(sessionID)
		seq, err := last(ctx, sessionID)
		if err != nil {
			return err
		}
		if seq > after {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}

// AppendEventNext stores ev as the next event of its session: it sets Sequence
// (the last stored one + 1) and returns ev as stored. ev.Timestamp is kept, in
// UTC (a zero one is set to now).
func (s *Memory) AppendEventNext(ctx context.Context, ev event.Event) (event.Event, error) {
	if err := checkSessionID(ev.SessionID); err != nil {
		return event.Event{}, err
	}
	if ev.Timestamp.IsZero() {
		ev.Timestamp = s.now().UTC()
	}
	if err := s.lock(ctx); err != nil {
		return event.Event{}, err
	}
	evs := s.events[ev.SessionID]
	if evs == nil {
		evs = &memEvents{data: map[uint64][]byte{}}
		s.events[ev.SessionID] = evs
	}
	ev.Sequence = 1
	if n := len(evs.seqs); n > 0 {
		ev.Sequence = evs.seqs[n-1] + 1
	}
	b, err := encodeEvent(ev)
	if err != nil {
		s.mu.Unlock()
		return event.Event{}, err
	}
	evs.seqs = append(evs.seqs, ev.Sequence)
	evs.data[ev.Sequence] = b
	s.mu.Unlock()
	s.notify.notify(ev.SessionID)
	ev.Timestamp = ev.Timestamp.UTC()
	return ev, nil
}

// WaitEvents returns nil as soon as the session has an event with a sequence
// greater than after, or ctx.Err() when ctx ends first.
func (s *Memory) WaitEvents(ctx context.Context, sessionID string, after uint64) error {
	return waitEvents(ctx, &s.notify, sessionID, after, s.LastEventSequence)
}

// evSeqOf returns the event sequence state of a session, creating it unloaded.
func (b *Badger) evSeqOf(sessionID string) *msgSeq {
	b.seqMu.Lock()
	defer b.seqMu.Unlock()
	st := b.evSeqs[sessionID]
	if st == nil {
		st = &msgSeq{}
		b.evSeqs[sessionID] = st
	}
	return st
}

// AppendEventNext stores ev as the next event of its session: it sets Sequence
// (the last stored one + 1) and returns ev as stored. ev.Timestamp is kept, in
// UTC (a zero one is set to now). Appends to one session are serialised; on
// error the sequence is not consumed.
func (b *Badger) AppendEventNext(ctx context.Context, ev event.Event) (event.Event, error) {
	const op = "append event"
	if err := checkSessionID(ev.SessionID); err != nil {
		return event.Event{}, err
	}
	if ev.Timestamp.IsZero() {
		ev.Timestamp = b.now().UTC()
	}
	st := b.evSeqOf(ev.SessionID)
	st.mu.Lock()
	defer st.mu.Unlock()
	for attempt := 0; ; attempt++ {
		if !st.loaded {
			last, err := b.lastSeq(ctx, op, kindEvent, ev.SessionID)
			if err != nil {
				return event.Event{}, err
			}
			st.next, st.loaded = last+1, true
		}
		ev.Sequence = st.next
		val, err := encodeEvent(ev)
		if err != nil {
			return event.Event{}, err
		}
		key := seqKey(kindEvent, ev.SessionID, ev.Sequence)
		taken := false
		err = b.update(ctx, op, func(txn *badger.Txn) error {
			found, err := b.exists(txn, op, key)
			if err != nil || found {
				taken = found
				return err
			}
			return b.set(txn, op, badger.NewEntry(key, val))
		})
		if err != nil {
			return event.Event{}, err
		}
		if taken { // an explicit AppendEvent got there first: reload the number
			st.loaded = false
			if attempt < 3 {
				continue
			}
			return event.Event{}, fmt.Errorf("persist: event %d of session %s: %w", ev.Sequence, ev.SessionID, ErrDuplicate)
		}
		st.next++
		b.notify.notify(ev.SessionID)
		ev.Timestamp = ev.Timestamp.UTC()
		return ev, nil
	}
}

// WaitEvents returns nil as soon as the session has an event with a sequence
// greater than after, or ctx.Err() when ctx ends first.
func (b *Badger) WaitEvents(ctx context.Context, sessionID string, after uint64) error {
	return waitEvents(ctx, &b.notify, sessionID, after, b.LastEventSequence)
}

// noteEvent keeps the sequence state of a session in step with an event stored
// under an explicit sequence, and wakes the session's waiters.
func (b *Badger) noteEvent(sessionID string, seq uint64) {
	b.seqMu.Lock()
	st := b.evSeqs[sessionID]
	b.seqMu.Unlock()
	if st != nil && st.mu.TryLock() {
		if st.loaded && seq >= st.next {
			st.next = seq + 1
		}
		st.mu.Unlock()
	}
	b.notify.notify(sessionID)
}
