package badger

import (
	"time"

	dgbadger "github.com/dgraph-io/badger/v4"
)

// Hooks for tests (the contract suite in persist/storetest and the suites of
// the stores built on this one). They bypass the store's rules; pincer never
// calls them.

// SetClock makes the store read the time (CreatedAt, audit Time, lease expiry)
// from now. Call it before the store is shared with other goroutines.
func (b *Store) SetClock(now func() time.Time) { b.now = now }

// WriteRaw stores value under key exactly as given, with no check or encoding:
// key is in the layout of persist/internal/record. Tests use it to damage a
// record and see how the store reports it.
func (b *Store) WriteRaw(key, value []byte) error {
	db, done, err := b.acquire("write raw")
	if err != nil {
		return err
	}
	defer done()
	return db.Update(func(txn *dgbadger.Txn) error { return txn.Set(key, value) })
}

// Keys returns every key stored, in order (for tests that check a delete
// leaves no key behind).
func (b *Store) Keys() ([][]byte, error) {
	db, done, err := b.acquire("keys")
	if err != nil {
		return nil, err
	}
	defer done()
	var keys [][]byte
	err = db.View(func(txn *dgbadger.Txn) error {
		it := txn.NewIterator(dgbadger.IteratorOptions{})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			keys = append(keys, it.Item().KeyCopy(nil))
		}
		return nil
	})
	return keys, err
}
