// Package badger is the persist.Store on disk: a Badger database in one
// directory, held by one process at a time (a second one gets an *InUseError,
// errors.Is persist.ErrInUse, naming the holder). It keeps the contract of
// persist.Store (the suite in persist/storetest runs against it, on disk and in
// memory); its sync policy is on Store. Every pincer process but the store
// daemon reaches it through persist/remote instead.
package badger

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"time"

	dgbadger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"

	"pincer/core/ctxwait"
	"pincer/persist"
	"pincer/persist/internal/record"
)

// Store is the persist.Store on disk, a Badger database in one directory (key
// layout in persist/internal/record). Open it with Open; one process at a time
// may hold a directory.
//
// Sync policy: commits are not fsynced one by one (Badger's SyncWrites is off),
// so an acknowledged write survives the process being killed (it is in the
// operating system's page cache); each AppendMessage then fsyncs Badger's logs,
// so the transcript — and every event written before it — also survives a power
// cut. Options.SyncWrites fsyncs every commit instead.
type Store struct {
	h            handle // the database, closed while suspended (suspend.go)
	dir          string // "" in memory
	now          func() time.Time
	syncMessages bool // fsync after each AppendMessage

	seqMu  sync.Mutex
	seqs   map[string]*msgSeq // next message sequence per session
	evSeqs map[string]*msgSeq // next event sequence per session (AppendEventNext)
	notify record.Notifier    // wakes WaitEvents (notify.go)

	stop      chan struct{} // closed by Close: ends the value-log GC loop
	gcDone    sync.WaitGroup
	closeOnce sync.Once
	closeErr  error
}

var _ persist.Store = (*Store)(nil)

// Sizes for a terminal tool: Badger's defaults reserve gigabytes.
const (
	memTableSize     = 8 << 20         // two of them
	valueThreshold   = 64 << 10        // larger values go to the value log (≤ 15% of memTableSize)
	valueLogFileSize = record.MaxValue // also the largest storable value
	blockCacheSize   = 8 << 20
	indexCacheSize   = 4 << 20

	// In memory there is no value log: a value must fit in the memtable's batch.
	memTableSizeInMemory   = 16 << 20
	valueThresholdInMemory = 1 << 20

	gcInterval     = 10 * time.Minute
	gcDiscardRatio = 0.5
	maxTxnRetries  = 64
)

// smallOptions returns Badger options with small memory use and no logging.
func smallOptions(dir string) dgbadger.Options {
	return dgbadger.DefaultOptions(dir).
		WithLogger(nil).
		WithMetricsEnabled(false).
		WithMemTableSize(memTableSize).
		WithNumMemtables(2).
		WithNumLevelZeroTables(2).
		WithNumLevelZeroTablesStall(8).
		WithNumCompactors(2).
		WithValueThreshold(valueThreshold).
		WithValueLogFileSize(valueLogFileSize).
		WithBlockCacheSize(blockCacheSize).
		WithIndexCacheSize(indexCacheSize).
		WithCompression(options.Snappy)
}

// Options are the choices OpenWith leaves open.
type Options struct {
	// SyncWrites fsyncs every commit (Badger's SyncWrites): a write that returned
	// then survives a power cut too, not only the process being killed.
	SyncWrites bool
}

// Open opens (creating if needed) the store in dir. When another process holds
// the directory, the error is an *InUseError (errors.Is(err, ErrInUse)) whose
// message is one line naming that process.
func Open(dir string) (*Store, error) {
	return OpenWith(dir, Options{})
}

// OpenWith is Open with options.
func OpenWith(dir string, opts Options) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("persist: create store directory: %w", err)
	}
	db, err := dgbadger.Open(smallOptions(dir).WithSyncWrites(opts.SyncWrites))
	if err != nil {
		if inUse := inUseError(dir, err); inUse != nil {
			return nil, inUse
		}
		return nil, &storeError{op: "open store " + dir, msg: shortMessage(err), err: err}
	}
	b := newStore(db, dir)
	b.h.opts = smallOptions(dir).WithSyncWrites(opts.SyncWrites)
	b.syncMessages = !opts.SyncWrites
	b.gcDone.Add(1)
	go b.gcLoop()
	return b, nil
}

// OpenInMemory opens a Badger store that lives in memory only (for tests).
// Values larger than 1 MB are refused.
func OpenInMemory() (*Store, error) {
	opts := smallOptions("").
		WithInMemory(true).
		WithMemTableSize(memTableSizeInMemory).
		WithValueThreshold(valueThresholdInMemory)
	db, err := dgbadger.Open(opts)
	if err != nil {
		return nil, &storeError{op: "open in-memory store", msg: shortMessage(err), err: err}
	}
	return newStore(db, ""), nil
}

func newStore(db *dgbadger.DB, dir string) *Store {
	return &Store{h: handle{db: db}, dir: dir, now: time.Now,
		seqs: map[string]*msgSeq{}, evSeqs: map[string]*msgSeq{}, stop: make(chan struct{})}
}

// Dir returns the store's directory, "" for an in-memory store.
func (b *Store) Dir() string { return b.dir }

// gcLoop runs the value-log GC every gcInterval until Close.
func (b *Store) gcLoop() {
	defer b.gcDone.Done()
	t := time.NewTicker(gcInterval)
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-t.C:
		}
		// Each successful run rewrites one file; repeat while there is
		// garbage. A suspended store is left alone (nothing was written).
		b.ifOpen(func(db *dgbadger.DB) {
			for db.RunValueLogGC(gcDiscardRatio) == nil {
				select {
				case <-b.stop:
					return
				default:
				}
			}
		})
	}
}

// Close stops the GC loop and closes the database. Later calls return the first
// result; every other method then fails with persist.ErrClosed.
func (b *Store) Close() error {
	b.closeOnce.Do(func() {
		close(b.stop)
		b.gcDone.Wait()
		if err := b.closeHandle(); err != nil {
			b.closeErr = b.dbErr("close", err)
		}
	})
	return b.closeErr
}

// dbErr wraps an error of Badger: persist.ErrClosed for a closed database, otherwise a
// short one-line message (never a value dump) that still unwraps to the original.
func (b *Store) dbErr(op string, err error) error {
	if errors.Is(err, dgbadger.ErrDBClosed) || errors.Is(err, dgbadger.ErrBlockedWrites) {
		return fmt.Errorf("persist: %s: %w", op, persist.ErrClosed)
	}
	return &storeError{op: op, msg: shortMessage(err), err: err}
}

// update runs fn in a read-write transaction, retrying it when a concurrent commit
// conflicts. Errors returned by fn are passed through as they are; Badger's own
// are wrapped by dbErr.
func (b *Store) update(ctx context.Context, op string, fn func(txn *dgbadger.Txn) error) error {
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		db, done, err := b.acquire(op)
		if err != nil {
			return err
		}
		var fnErr error
		err = db.Update(func(txn *dgbadger.Txn) error {
			fnErr = fn(txn)
			return fnErr
		})
		done()
		switch {
		case err == nil:
			return nil
		case fnErr != nil:
			return fnErr
		case errors.Is(err, dgbadger.ErrConflict) && attempt < maxTxnRetries:
			if err := conflictBackoff(ctx, attempt); err != nil {
				return err
			}
			continue
		}
		return b.dbErr(op, err)
	}
}

// conflictBackoff waits before retry attempt+1 of a conflicted transaction:
// a random wait up to 100 µs << attempt, at most 20 ms, so that racing
// writers stop colliding (retried at once, four appenders each reading and
// trimming a 1,000-prompt history under the race detector starved one past
// maxTxnRetries: a prompt lost in CI). It returns ctx's error when ctx ends
// first.
func conflictBackoff(ctx context.Context, attempt int) error {
	limit := min(100*time.Microsecond<<min(attempt, 8), 20*time.Millisecond)
	return ctxwait.Sleep(ctx, time.Duration(rand.Int64N(int64(limit))+1))
}

// view runs fn in a read-only transaction, with the same error handling as update.
func (b *Store) view(ctx context.Context, op string, fn func(txn *dgbadger.Txn) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	db, done, err := b.acquire(op)
	if err != nil {
		return err
	}
	defer done()
	var fnErr error
	err = db.View(func(txn *dgbadger.Txn) error {
		fnErr = fn(txn)
		return fnErr
	})
	switch {
	case err == nil:
		return nil
	case fnErr != nil:
		return fnErr
	}
	return b.dbErr(op, err)
}

// get reads key's value in txn; found is false when the key does not exist.
func (b *Store) get(txn *dgbadger.Txn, op string, key []byte) (val []byte, found bool, err error) {
	item, err := txn.Get(key)
	if errors.Is(err, dgbadger.ErrKeyNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, b.dbErr(op, err)
	}
	val, err = item.ValueCopy(nil)
	if err != nil {
		return nil, false, b.dbErr(op, err)
	}
	return val, true, nil
}

// set writes an entry in txn, refusing values too large to store with a short error.
func (b *Store) set(txn *dgbadger.Txn, op string, e *dgbadger.Entry) error {
	limit := int64(valueLogFileSize)
	if b.dir == "" {
		limit = valueThresholdInMemory
	}
	if int64(len(e.Value)) > limit {
		return fmt.Errorf("persist: %s: value of %d bytes is larger than the %d-byte limit",
			op, len(e.Value), limit)
	}
	if err := txn.SetEntry(e); err != nil {
		return b.dbErr(op, err)
	}
	return nil
}
