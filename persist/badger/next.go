package badger

import (
	"context"
	"fmt"

	dgbadger "github.com/dgraph-io/badger/v4"

	"pincer/core/event"
	"pincer/persist"
	"pincer/persist/internal/record"
)

// Sequencing and waiting, the store's half of the event log (core/event.Log
// uses them, see event.SequencingStore and event.WaitingStore); the rules are
// in persist/internal/record (notify.go).

// evSeqOf returns the event sequence state of a session, creating it unloaded.
func (b *Store) evSeqOf(sessionID string) *msgSeq {
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
func (b *Store) AppendEventNext(ctx context.Context, ev event.Event) (event.Event, error) {
	const op = "append event"
	if err := record.CheckSessionID(ev.SessionID); err != nil {
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
			last, err := b.lastSeq(ctx, op, record.KindEvent, ev.SessionID)
			if err != nil {
				return event.Event{}, err
			}
			st.next, st.loaded = last+1, true
		}
		ev.Sequence = st.next
		val, err := record.EncodeEvent(ev)
		if err != nil {
			return event.Event{}, err
		}
		key := record.SeqKey(record.KindEvent, ev.SessionID, ev.Sequence)
		taken := false
		err = b.update(ctx, op, func(txn *dgbadger.Txn) error {
			found, err := b.exists(txn, op, key)
			if err != nil || found {
				taken = found
				return err
			}
			return b.set(txn, op, dgbadger.NewEntry(key, val))
		})
		if err != nil {
			return event.Event{}, err
		}
		if taken { // an explicit AppendEvent got there first: reload the number
			st.loaded = false
			if attempt < 3 {
				continue
			}
			return event.Event{}, fmt.Errorf("persist: event %d of session %s: %w", ev.Sequence, ev.SessionID, persist.ErrDuplicate)
		}
		st.next++
		b.notify.Notify(ev.SessionID)
		ev.Timestamp = ev.Timestamp.UTC()
		return ev, nil
	}
}

// WaitEvents returns nil as soon as the session has an event with a sequence
// greater than after, or ctx.Err() when ctx ends first.
func (b *Store) WaitEvents(ctx context.Context, sessionID string, after uint64) error {
	return record.WaitEvents(ctx, &b.notify, sessionID, after, b.LastEventSequence)
}

// noteEvent keeps the sequence state of a session in step with an event stored
// under an explicit sequence, and wakes the session's waiters.
func (b *Store) noteEvent(sessionID string, seq uint64) {
	b.seqMu.Lock()
	st := b.evSeqs[sessionID]
	b.seqMu.Unlock()
	if st != nil && st.mu.TryLock() {
		if st.loaded && seq >= st.next {
			st.next = seq + 1
		}
		st.mu.Unlock()
	}
	b.notify.Notify(sessionID)
}
