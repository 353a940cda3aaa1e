package persist

import (
	"context"
	"fmt"
	"slices"

	"github.com/dgraph-io/badger/v4"
)

// Deleting a session, in both stores: everything keyed by the session id goes
// (see keys.go and audit.go for the layout).

// auditKeySession returns the session id of a global audit index key
// (A/<^time 8 bytes><sessionID>/<^seq 8 bytes>), "" for a malformed key.
// Session ids hold no '/', so the id is exactly what lies between.
func auditKeySession(key []byte) string {
	start, end := len(auditTimePrefix)+8, len(key)-9
	if end <= start || key[end] != '/' {
		return ""
	}
	return string(key[start:end])
}

// DeleteSession deletes a session and everything stored under its id; an
// error wrapping ErrNotFound when it had no session record.
func (s *Memory) DeleteSession(ctx context.Context, id string) error {
	if err := checkSessionID(id); err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	_, found := s.sessions[id]
	delete(s.sessions, id)
	delete(s.messages, id)
	delete(s.events, id)
	delete(s.leases, id)
	x := &s.extra
	delete(x.audit, id)
	delete(x.rules, id)
	x.all = slices.DeleteFunc(x.all, func(r memAuditRef) bool { return auditKeySession(r.key) == id })
	if !found {
		return fmt.Errorf("persist: session %q: %w", id, ErrNotFound)
	}
	return nil
}

// DeleteSession deletes a session and everything stored under its id; an
// error wrapping ErrNotFound when it had no session record. The keys are
// found in one read transaction and deleted in a write batch (a long
// session's keys do not fit one transaction), the session record and its
// index key first, so the session leaves every listing at once.
func (b *Badger) DeleteSession(ctx context.Context, id string) error {
	const op = "delete session"
	if err := checkSessionID(id); err != nil {
		return err
	}
	keys := [][]byte{sessionKey(id)}
	found := false
	err := b.view(ctx, op, func(txn *badger.Txn) error {
		var err error
		if found, err = b.exists(txn, op, sessionKey(id)); err != nil {
			return err
		}
		collect := func(prefix []byte, match func(key []byte) bool) {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
			defer it.Close()
			for it.Seek(prefix); it.ValidForPrefix(prefix); it.Next() {
				if k := it.Item().Key(); match == nil || match(k) {
					keys = append(keys, it.Item().KeyCopy(nil))
				}
			}
		}
		collect(recencyPrefix, func(k []byte) bool { return recencyID(k) == id })
		keys = append(keys, leaseKey(id), sessionRulesKey(id))
		for _, kind := range []byte{kindMessage, kindEvent, kindAudit} {
			collect(seqPrefix(kind, id), nil)
		}
		collect(auditTimePrefix, func(k []byte) bool { return auditKeySession(k) == id })
		return ctx.Err()
	})
	if err != nil {
		return err
	}
	wb := b.db.NewWriteBatch()
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
		return fmt.Errorf("persist: session %q: %w", id, ErrNotFound)
	}
	return nil
}
