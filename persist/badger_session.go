package persist

import (
	"bytes"
	"context"
	"fmt"

	"github.com/dgraph-io/badger/v4"
)

// PutSession creates or replaces a session record. In the same transaction it
// moves the session's recency index key when UpdatedAt changed.
func (b *Badger) PutSession(ctx context.Context, s Session) error {
	const op = "put session"
	val, err := encodeSession(s)
	if err != nil {
		return err
	}
	key := sessionKey(s.ID)
	idx := recencyKey(s.ID, s.UpdatedAt)
	return b.update(ctx, op, func(txn *badger.Txn) error {
		old, found, err := b.get(txn, op, key)
		if err != nil {
			return err
		}
		if found {
			// An undecodable old record leaves its index key behind; ListSessions
			// skips index keys that do not match their record.
			if prev, err := decodeSession(old); err == nil {
				if oldIdx := recencyKey(s.ID, prev.UpdatedAt); !bytes.Equal(oldIdx, idx) {
					if err := txn.Delete(oldIdx); err != nil {
						return b.dbErr(op, err)
					}
				}
			}
		}
		if err := b.set(txn, op, badger.NewEntry(key, val)); err != nil {
			return err
		}
		return b.set(txn, op, badger.NewEntry(idx, nil))
	})
}

// GetSession returns a session or an error wrapping ErrNotFound (ErrCorrupt when
// the record cannot be decoded).
func (b *Badger) GetSession(ctx context.Context, id string) (Session, error) {
	const op = "get session"
	var s Session
	err := b.view(ctx, op, func(txn *badger.Txn) error {
		val, found, err := b.get(txn, op, sessionKey(id))
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("persist: session %q: %w", id, ErrNotFound)
		}
		if s, err = decodeSession(val); err != nil {
			return fmt.Errorf("persist: session %q: %w", id, ErrCorrupt)
		}
		return nil
	})
	return s, err
}

// ListSessions returns up to limit sessions, newest UpdatedAt first (ties by id);
// limit <= 0 means all. It walks the recency index. Undecodable records are skipped
// and reported with a *CorruptError next to the others.
func (b *Badger) ListSessions(ctx context.Context, limit int) ([]Session, error) {
	const op = "list sessions"
	out := []Session{}
	bad := 0
	err := b.view(ctx, op, func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: recencyPrefix})
		defer it.Close()
		for it.Seek(recencyPrefix); it.ValidForPrefix(recencyPrefix); it.Next() {
			if limit > 0 && len(out) == limit {
				return nil
			}
			idx := it.Item().Key()
			id := recencyID(idx)
			if id == "" {
				continue
			}
			val, found, err := b.get(txn, op, sessionKey(id))
			if err != nil {
				return err
			}
			if !found {
				continue // stale index key
			}
			s, err := decodeSession(val)
			if err != nil {
				bad++
				continue
			}
			if !bytes.Equal(recencyKey(s.ID, s.UpdatedAt), idx) {
				continue // stale index key
			}
			out = append(out, s)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, corruptErr("session", "", bad)
}
