package badger

import (
	"bytes"
	"context"
	"fmt"

	dgbadger "github.com/dgraph-io/badger/v4"

	"pincer/persist"
	"pincer/persist/internal/record"
)

// PutSession creates or replaces a session record. In the same transaction it
// moves the session's recency index key when UpdatedAt changed.
func (b *Store) PutSession(ctx context.Context, s persist.Session) error {
	const op = "put session"
	val, err := record.EncodeSession(s)
	if err != nil {
		return err
	}
	key := record.SessionKey(s.ID)
	idx := record.RecencyKey(s.ID, s.UpdatedAt)
	return b.update(ctx, op, func(txn *dgbadger.Txn) error {
		old, found, err := b.get(txn, op, key)
		if err != nil {
			return err
		}
		if found {
			// An undecodable old record leaves its index key behind; ListSessions
			// skips index keys that do not match their record.
			if prev, err := record.DecodeSession(old); err == nil {
				if oldIdx := record.RecencyKey(s.ID, prev.UpdatedAt); !bytes.Equal(oldIdx, idx) {
					if err := txn.Delete(oldIdx); err != nil {
						return b.dbErr(op, err)
					}
				}
			}
		}
		if err := b.set(txn, op, dgbadger.NewEntry(key, val)); err != nil {
			return err
		}
		return b.set(txn, op, dgbadger.NewEntry(idx, nil))
	})
}

// GetSession returns a session or an error wrapping persist.ErrNotFound (persist.ErrCorrupt when
// the record cannot be decoded).
func (b *Store) GetSession(ctx context.Context, id string) (persist.Session, error) {
	const op = "get session"
	var s persist.Session
	err := b.view(ctx, op, func(txn *dgbadger.Txn) error {
		val, found, err := b.get(txn, op, record.SessionKey(id))
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("persist: session %q: %w", id, persist.ErrNotFound)
		}
		if s, err = record.DecodeSession(val); err != nil {
			return fmt.Errorf("persist: session %q: %w", id, persist.ErrCorrupt)
		}
		return nil
	})
	return s, err
}

// ListSessions returns up to limit sessions, newest UpdatedAt first (ties by id);
// limit <= 0 means all. It walks the recency index. Undecodable records are skipped
// and reported with a *CorruptError next to the others.
func (b *Store) ListSessions(ctx context.Context, limit int) ([]persist.Session, error) {
	const op = "list sessions"
	out := []persist.Session{}
	bad := 0
	err := b.view(ctx, op, func(txn *dgbadger.Txn) error {
		it := txn.NewIterator(dgbadger.IteratorOptions{Prefix: record.RecencyPrefix})
		defer it.Close()
		for it.Seek(record.RecencyPrefix); it.ValidForPrefix(record.RecencyPrefix); it.Next() {
			if limit > 0 && len(out) == limit {
				return nil
			}
			idx := it.Item().Key()
			id := record.RecencyID(idx)
			if id == "" {
				continue
			}
			val, found, err := b.get(txn, op, record.SessionKey(id))
			if err != nil {
				return err
			}
			if !found {
				continue // stale index key
			}
			s, err := record.DecodeSession(val)
			if err != nil {
				bad++
				continue
			}
			if !bytes.Equal(record.RecencyKey(s.ID, s.UpdatedAt), idx) {
				continue // stale index key
			}
			out = append(out, s)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, record.CorruptErr("session", "", bad)
}
