package badger

import (
	"context"

	dgbadger "github.com/dgraph-io/badger/v4"

	"pincer/persist"
	"pincer/persist/internal/record"
)

// GetLease returns the session's live lease; found is false when it is free
// (no lease stored, an expired one, or one that does not decode).
func (b *Store) GetLease(ctx context.Context, sessionID string) (persist.Lease, bool, error) {
	const op = "get lease"
	if err := record.CheckSessionID(sessionID); err != nil {
		return persist.Lease{}, false, err
	}
	var (
		l     persist.Lease
		found bool
	)
	err := b.view(ctx, op, func(txn *dgbadger.Txn) error {
		cur, ok, err := b.readLease(txn, op, sessionID)
		if err != nil {
			return err
		}
		l, found = record.Live(cur, ok, b.now())
		return nil
	})
	if err != nil {
		return persist.Lease{}, false, err
	}
	return l, found, nil
}
