package badger

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	dgbadger "github.com/dgraph-io/badger/v4"

	"pincer/persist"
	"pincer/persist/internal/record"
)

// checkpointMu serialises checkpoint appends in this process, as auditMu does
// audit appends (one per file-changing tool call).
var checkpointMu sync.Mutex

// PutBlob stores data under hash (key b/<hash>) unless a blob of that hash is
// stored: content-addressed, so a second put of the same content stores nothing.
func (b *Store) PutBlob(ctx context.Context, hash string, data []byte) error {
	const op = "put blob"
	if err := record.CheckBlobHash(hash); err != nil {
		return err
	}
	key := record.BlobKey(hash)
	return b.update(ctx, op, func(txn *dgbadger.Txn) error {
		if found, err := b.exists(txn, op, key); err != nil || found {
			return err
		}
		return b.set(txn, op, dgbadger.NewEntry(key, data))
	})
}

// GetBlob returns the blob of hash, an error wrapping persist.ErrNotFound when none.
func (b *Store) GetBlob(ctx context.Context, hash string) ([]byte, error) {
	const op = "get blob"
	if err := record.CheckBlobHash(hash); err != nil {
		return nil, err
	}
	var out []byte
	err := b.view(ctx, op, func(txn *dgbadger.Txn) error {
		val, found, err := b.get(txn, op, record.BlobKey(hash))
		if err == nil && !found {
			err = fmt.Errorf("persist: blob %s: %w", hash, persist.ErrNotFound)
		}
		out = val
		return err
	})
	return out, err
}

// DeleteBlob deletes the blob of hash.
func (b *Store) DeleteBlob(ctx context.Context, hash string) error {
	const op = "delete blob"
	if err := record.CheckBlobHash(hash); err != nil {
		return err
	}
	return b.update(ctx, op, func(txn *dgbadger.Txn) error {
		if err := txn.Delete(record.BlobKey(hash)); err != nil {
			return b.dbErr(op, err)
		}
		return nil
	})
}

// ListBlobs returns every blob's hash and stored size (keys only: the values
// are not read).
func (b *Store) ListBlobs(ctx context.Context) (map[string]int64, error) {
	const op = "list blobs"
	out := map[string]int64{}
	err := b.view(ctx, op, func(txn *dgbadger.Txn) error {
		it := txn.NewIterator(dgbadger.IteratorOptions{Prefix: record.BlobPrefix})
		defer it.Close()
		for it.Seek(record.BlobPrefix); it.ValidForPrefix(record.BlobPrefix); it.Next() {
			out[string(it.Item().Key()[len(record.BlobPrefix):])] = it.Item().ValueSize()
		}
		return ctx.Err()
	})
	return out, err
}

// AppendCheckpoint stores c as its session's next checkpoint (c/<id>/<seq>),
// the sequence read and written in one transaction as AppendAudit's.
func (b *Store) AppendCheckpoint(ctx context.Context, c persist.Checkpoint) (persist.Checkpoint, error) {
	const op = "append checkpoint"
	if err := record.CheckSessionID(c.SessionID); err != nil {
		return c, err
	}
	if c.Time.IsZero() {
		c.Time = b.now().UTC()
	}
	prefix := record.SeqPrefix(record.KindCheckpoint, c.SessionID)
	checkpointMu.Lock()
	defer checkpointMu.Unlock()
	err := b.update(ctx, op, func(txn *dgbadger.Txn) error {
		c.Seq = lastSeqIn(txn, prefix) + 1
		key := record.SeqKey(record.KindCheckpoint, c.SessionID, c.Seq)
		if _, err := b.exists(txn, op, key); err != nil {
			return err
		}
		val, err := json.Marshal(c)
		if err != nil {
			return err
		}
		return b.set(txn, op, dgbadger.NewEntry(key, val))
	})
	return c, err
}

// ListCheckpoints returns a session's checkpoints in Seq order, or every
// session's ("": sessions in id order). A record that does not decode is
// skipped and reported (a *persist.CorruptError).
func (b *Store) ListCheckpoints(ctx context.Context, sessionID string) ([]persist.Checkpoint, error) {
	const op = "list checkpoints"
	prefix := record.CheckpointPrefix
	if sessionID != "" {
		if err := record.CheckSessionID(sessionID); err != nil {
			return nil, err
		}
		prefix = record.SeqPrefix(record.KindCheckpoint, sessionID)
	}
	out := []persist.Checkpoint{}
	var bad error
	err := b.view(ctx, op, func(txn *dgbadger.Txn) error {
		it := txn.NewIterator(dgbadger.IteratorOptions{Prefix: prefix})
		defer it.Close()
		for it.Seek(prefix); it.ValidForPrefix(prefix); it.Next() {
			val, err := it.Item().ValueCopy(nil)
			if err != nil {
				return b.dbErr(op, err)
			}
			var c persist.Checkpoint
			if err := json.Unmarshal(val, &c); err != nil {
				bad = fmt.Errorf("persist: checkpoint %q: %w", it.Item().Key(), persist.ErrCorrupt)
				continue
			}
			out = append(out, c)
		}
		return ctx.Err()
	})
	if err == nil {
		err = bad
	}
	return out, err
}

// DeleteCheckpoint deletes one checkpoint.
func (b *Store) DeleteCheckpoint(ctx context.Context, sessionID string, seq uint64) error {
	const op = "delete checkpoint"
	if err := record.CheckSessionID(sessionID); err != nil {
		return err
	}
	return b.update(ctx, op, func(txn *dgbadger.Txn) error {
		if err := txn.Delete(record.SeqKey(record.KindCheckpoint, sessionID, seq)); err != nil {
			return b.dbErr(op, err)
		}
		return nil
	})
}
