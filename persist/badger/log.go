package badger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync"

	dgbadger "github.com/dgraph-io/badger/v4"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/persist"
	"pincer/persist/internal/record"
)

// msgSeq is the next message sequence of one session. Badger's GetSequence can skip
// numbers after a crash, so the number is kept here, read once from the last key.
type msgSeq struct {
	mu     sync.Mutex // held for a whole append: a session's appends are serial
	loaded bool
	next   uint64
}

// msgSeqOf returns the sequence state of a session, creating it unloaded.
func (b *Store) msgSeqOf(sessionID string) *msgSeq {
	b.seqMu.Lock()
	defer b.seqMu.Unlock()
	st := b.seqs[sessionID]
	if st == nil {
		st = &msgSeq{}
		b.seqs[sessionID] = st
	}
	return st
}

// AppendMessage stores m as the session's next message and returns it with Seq
// set, and ID and CreatedAt filled in when they were empty. Appends to one session
// are serialised; on error the sequence is not consumed.
func (b *Store) AppendMessage(ctx context.Context, m message.Message) (message.Message, error) {
	const op = "append message"
	if err := record.CheckSessionID(m.SessionID); err != nil {
		return message.Message{}, err
	}
	st := b.msgSeqOf(m.SessionID)
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.loaded {
		last, err := b.lastSeq(ctx, op, record.KindMessage, m.SessionID)
		if err != nil {
			return message.Message{}, err
		}
		st.next, st.loaded = last+1, true
	}
	m, val, err := record.PrepareMessage(m, st.next, b.now())
	if err != nil {
		return message.Message{}, err
	}
	key := record.SeqKey(record.KindMessage, m.SessionID, m.Seq)
	err = b.update(ctx, op, func(txn *dgbadger.Txn) error {
		if found, err := b.exists(txn, op, key); err != nil || found {
			if found {
				st.loaded = false // someone else wrote here: reload before the next append
				err = fmt.Errorf("persist: message %d of session %s is already stored", m.Seq, m.SessionID)
			}
			return err
		}
		return b.set(txn, op, dgbadger.NewEntry(key, val))
	})
	if err != nil {
		return message.Message{}, err
	}
	st.next++
	if b.syncMessages {
		if err := b.sync(op); err != nil {
			return message.Message{}, fmt.Errorf("persist: message %d of session %s is stored but not synced to disk: %w",
				m.Seq, m.SessionID, err)
		}
	}
	return m, nil
}

// ListMessages returns every message of a session in Seq order. Undecodable records
// are skipped and reported with a *CorruptError next to the others.
func (b *Store) ListMessages(ctx context.Context, sessionID string) ([]message.Message, error) {
	out := []message.Message{}
	if record.CheckSessionID(sessionID) != nil {
		return out, nil
	}
	var raws [][]byte
	err := b.scan(ctx, "list messages", record.KindMessage, sessionID, 1, func(_ uint64, val []byte) bool {
		raws = append(raws, append([]byte(nil), val...))
		return true
	})
	if err != nil {
		return nil, err
	}
	if len(raws) == 0 {
		return out, nil
	}
	out, bad := record.DecodeAll(raws, record.DecodeMessage)
	return out, record.CorruptErr("message", sessionID, bad)
}

// AppendEvent stores ev under (ev.SessionID, ev.Sequence); an existing sequence is
// refused with an error wrapping persist.ErrDuplicate.
func (b *Store) AppendEvent(ctx context.Context, ev event.Event) error {
	const op = "append event"
	val, err := record.EncodeEvent(ev)
	if err != nil {
		return err
	}
	key := record.SeqKey(record.KindEvent, ev.SessionID, ev.Sequence)
	err = b.update(ctx, op, func(txn *dgbadger.Txn) error {
		found, err := b.exists(txn, op, key)
		if err != nil {
			return err
		}
		if found {
			return fmt.Errorf("persist: event %d of session %s: %w", ev.Sequence, ev.SessionID, persist.ErrDuplicate)
		}
		return b.set(txn, op, dgbadger.NewEntry(key, val))
	})
	if err == nil {
		b.noteEvent(ev.SessionID, ev.Sequence)
	}
	return err
}

// ListEvents returns up to limit events of a session with Sequence > after, in
// order (limit <= 0: all). Undecodable records are skipped and reported with a
// *CorruptError next to the others.
func (b *Store) ListEvents(ctx context.Context, sessionID string, after uint64, limit int) ([]event.Event, error) {
	out := []event.Event{}
	if record.CheckSessionID(sessionID) != nil || after == math.MaxUint64 {
		return out, nil
	}
	bad := 0
	err := b.scan(ctx, "list events", record.KindEvent, sessionID, after+1, func(_ uint64, val []byte) bool {
		ev, err := record.DecodeEvent(val)
		if err != nil {
			bad++
			return true
		}
		out = append(out, ev)
		return limit <= 0 || len(out) < limit
	})
	if err != nil {
		return nil, err
	}
	return out, record.CorruptErr("event", sessionID, bad)
}

// ListEventsJSON is ListEvents as the stored records themselves, one JSON
// array (persist.EventJSONLister): each record is checked to be a JSON
// object (json.Valid, no decoding) and copied once into the array; the
// others are skipped and reported with a *CorruptError next to the array.
func (b *Store) ListEventsJSON(ctx context.Context, sessionID string, after uint64, limit int) ([]byte, error) {
	out := []byte{'['}
	if record.CheckSessionID(sessionID) != nil || after == math.MaxUint64 {
		return append(out, ']'), nil
	}
	bad, n := 0, 0
	err := b.scan(ctx, "list events", record.KindEvent, sessionID, after+1, func(_ uint64, val []byte) bool {
		if len(val) == 0 || val[0] != '{' || !json.Valid(val) {
			bad++
			return true
		}
		if n > 0 {
			out = append(out, ',')
		}
		out = append(out, val...)
		n++
		return limit <= 0 || n < limit
	})
	if err != nil {
		return nil, err
	}
	return append(out, ']'), record.CorruptErr("event", sessionID, bad)
}

// LastEventSequence returns the highest stored sequence of a session, 0 if none.
func (b *Store) LastEventSequence(ctx context.Context, sessionID string) (uint64, error) {
	if record.CheckSessionID(sessionID) != nil {
		return 0, nil
	}
	return b.lastSeq(ctx, "last event sequence", record.KindEvent, sessionID)
}

// exists reports whether key is stored, without reading its value.
func (b *Store) exists(txn *dgbadger.Txn, op string, key []byte) (bool, error) {
	_, err := txn.Get(key)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, dgbadger.ErrKeyNotFound):
		return false, nil
	}
	return false, b.dbErr(op, err)
}

// lastSeq returns the highest sequence stored under a session's kind prefix, 0 if
// none: a reverse iteration seeking past the highest possible key.
func (b *Store) lastSeq(ctx context.Context, op string, kind byte, sessionID string) (uint64, error) {
	prefix := record.SeqPrefix(kind, sessionID)
	var last uint64
	err := b.view(ctx, op, func(txn *dgbadger.Txn) error {
		it := txn.NewIterator(dgbadger.IteratorOptions{Reverse: true, Prefix: prefix})
		defer it.Close()
		for it.Seek(record.SeekLast(prefix)); it.ValidForPrefix(prefix); it.Next() {
			if seq, ok := record.SeqOf(prefix, it.Item().Key()); ok {
				last = seq
				return nil
			}
		}
		return nil
	})
	return last, err
}

// scan calls fn with each record of a session's kind from sequence from on, in
// order, until fn returns false. val is only valid during the call.
func (b *Store) scan(ctx context.Context, op string, kind byte, sessionID string, from uint64,
	fn func(seq uint64, val []byte) bool) error {
	prefix := record.SeqPrefix(kind, sessionID)
	return b.view(ctx, op, func(txn *dgbadger.Txn) error {
		it := txn.NewIterator(dgbadger.IteratorOptions{PrefetchValues: true, PrefetchSize: 64, Prefix: prefix})
		defer it.Close()
		n := 0
		for it.Seek(record.SeqKey(kind, sessionID, from)); it.ValidForPrefix(prefix); it.Next() {
			if n++; n%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			item := it.Item()
			seq, ok := record.SeqOf(prefix, item.Key())
			if !ok {
				continue
			}
			more := true
			if err := item.Value(func(val []byte) error {
				more = fn(seq, val)
				return nil
			}); err != nil {
				return b.dbErr(op, err)
			}
			if !more {
				return nil
			}
		}
		return nil
	})
}
