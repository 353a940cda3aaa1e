package badger

import (
	"context"
	"fmt"

	dgbadger "github.com/dgraph-io/badger/v4"

	"pincer/persist"
	"pincer/persist/internal/record"
)

// Deleting a session: everything keyed by the session id goes (layout in
// persist/internal/record).

// DeleteSession deletes a session and everything stored under its id; an
// error wrapping persist.ErrNotFound when it had no session record. The keys are
// found in one read transaction and deleted in a write batch (a long
// session's keys do not fit one transaction), the session record and its
// index key first, so the session leaves every listing at once.
func (b *Store) DeleteSession(ctx context.Context, id string) error {
	const op = "delete session"
	if err := record.CheckSessionID(id); err != nil {
		return err
	}
	keys := [][]byte{record.SessionKey(id)}
	found := false
	err := b.view(ctx, op, func(txn *dgbadger.Txn) error {
		var err error
		if found, err = b.exists(txn, op, record.SessionKey(id)); err != nil {
			return err
		}
		collect := func(prefix []byte, match func(key []byte) bool) {
			it := txn.NewIterator(dgbadger.IteratorOptions{Prefix: prefix})
			defer it.Close()
			for it.Seek(prefix); it.ValidForPrefix(prefix); it.Next() {
				if k := it.Item().Key(); match == nil || match(k) {
					keys = append(keys, it.Item().KeyCopy(nil))
				}
			}
		}
		collect(record.RecencyPrefix, func(k []byte) bool { return record.RecencyID(k) == id })
		keys = append(keys, record.LeaseKey(id), record.SessionRulesKey(id))
		for _, kind := range []byte{record.KindMessage, record.KindEvent, record.KindAudit, record.KindCheckpoint} {
			collect(record.SeqPrefix(kind, id), nil)
		}
		collect(record.AuditTimePrefix, func(k []byte) bool { return record.AuditKeySession(k) == id })
		return ctx.Err()
	})
	if err != nil {
		return err
	}
	db, done, err := b.acquire(op)
	if err != nil {
		return err
	}
	defer done()
	wb := db.NewWriteBatch()
	defer wb.Cancel()
	for _, k := range keys {
		if err := wb.Delete(k); err != nil {
			return b.dbErr(op, err)
		}
	}
	if err := wb.Flush(); err != nil {
		return b.dbErr(op, err)
	}
	b.seqMu.Lock()
	delete(b.seqs, id) // the next message of a new session under this id is 1
	delete(b.evSeqs, id)
	b.seqMu.Unlock()
	if !found {
		return fmt.Errorf("persist: session %q: %w", id, persist.ErrNotFound)
	}
	return nil
}
