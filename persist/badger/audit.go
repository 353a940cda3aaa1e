package badger

import (
	"context"
	"fmt"
	"sync"

	dgbadger "github.com/dgraph-io/badger/v4"

	"pincer/persist"
	"pincer/persist/internal/record"
)

// auditMu serialises audit appends in this process, so they do not starve each
// other on transaction conflicts (appends are one per tool call: rare and small).
var auditMu sync.Mutex

// AppendAudit appends e to its session's audit trail (keys in audit.go). The next
// sequence is read and written in one transaction; the existence check on the new
// key puts it in the transaction's read set, so two racing appends (from another
// process) conflict and the loser retries with the next number instead of
// overwriting.
func (b *Store) AppendAudit(ctx context.Context, e persist.AuditEntry) error {
	const op = "append audit entry"
	e, val, err := record.PrepareAudit(e, b.now())
	if err != nil {
		return err
	}
	prefix := record.SeqPrefix(record.KindAudit, e.SessionID)
	auditMu.Lock()
	defer auditMu.Unlock()
	return b.update(ctx, op, func(txn *dgbadger.Txn) error {
		seq := lastSeqIn(txn, prefix) + 1
		key := record.SeqKey(record.KindAudit, e.SessionID, seq)
		if found, err := b.exists(txn, op, key); err != nil || found {
			if found { // only a malformed key under the prefix could hide it from lastSeqIn
				err = fmt.Errorf("persist: audit entry %d of session %s is already stored", seq, e.SessionID)
			}
			return err
		}
		if err := b.set(txn, op, dgbadger.NewEntry(key, val)); err != nil {
			return err
		}
		return b.set(txn, op, dgbadger.NewEntry(record.AuditTimeKey(e.SessionID, seq, e.Time), val))
	})
}

// lastSeqIn returns the highest sequence stored under prefix in txn, 0 if none.
func lastSeqIn(txn *dgbadger.Txn, prefix []byte) uint64 {
	it := txn.NewIterator(dgbadger.IteratorOptions{Reverse: true, Prefix: prefix})
	defer it.Close()
	for it.Seek(record.SeekLast(prefix)); it.ValidForPrefix(prefix); it.Next() {
		if seq, ok := record.SeqOf(prefix, it.Item().Key()); ok {
			return seq
		}
	}
	return 0
}

// ListAudit returns up to limit entries newest first (limit <= 0: all): one
// session's by a reverse scan of a/<id>/, every session's ("") by a forward scan
// of the time index. Undecodable entries are skipped and reported with a
// *CorruptError next to the others.
func (b *Store) ListAudit(ctx context.Context, sessionID string, limit int) ([]persist.AuditEntry, error) {
	const op = "list audit"
	out := []persist.AuditEntry{}
	var prefix, seek []byte
	reverse := sessionID != ""
	if reverse {
		if record.CheckSessionID(sessionID) != nil {
			return out, nil
		}
		prefix = record.SeqPrefix(record.KindAudit, sessionID)
		seek = record.SeekLast(prefix)
	} else {
		prefix, seek = record.AuditTimePrefix, record.AuditTimePrefix
	}
	bad := 0
	err := b.view(ctx, op, func(txn *dgbadger.Txn) error {
		it := txn.NewIterator(dgbadger.IteratorOptions{Reverse: reverse, Prefix: prefix,
			PrefetchValues: true, PrefetchSize: 64})
		defer it.Close()
		for it.Seek(seek); it.ValidForPrefix(prefix); it.Next() {
			if limit > 0 && len(out) == limit {
				return nil
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := it.Item().Value(func(val []byte) error {
				e, err := record.DecodeAudit(val)
				if err != nil {
					bad++
					return nil
				}
				out = append(out, e)
				return nil
			}); err != nil {
				return b.dbErr(op, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, record.CorruptErr("audit", sessionID, bad)
}

// PutSessionRules replaces the permission rules of a session.
func (b *Store) PutSessionRules(ctx context.Context, sessionID string, rules []string) error {
	const op = "put session rules"
	val, err := record.EncodeSessionRules(sessionID, rules)
	if err != nil {
		return err
	}
	return b.update(ctx, op, func(txn *dgbadger.Txn) error {
		return b.set(txn, op, dgbadger.NewEntry(record.SessionRulesKey(sessionID), val))
	})
}

// GetSessionRules returns the rules of a session; none stored is an empty list.
func (b *Store) GetSessionRules(ctx context.Context, sessionID string) ([]string, error) {
	const op = "get session rules"
	if record.CheckSessionID(sessionID) != nil {
		return []string{}, nil
	}
	var val []byte
	var found bool
	err := b.view(ctx, op, func(txn *dgbadger.Txn) error {
		var err error
		val, found, err = b.get(txn, op, record.SessionRulesKey(sessionID))
		return err
	})
	if err != nil {
		return nil, err
	}
	if !found {
		return []string{}, nil
	}
	return record.DecodeSessionRules(sessionID, val)
}
