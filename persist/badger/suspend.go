package badger

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"

	dgbadger "github.com/dgraph-io/badger/v4"

	"pincer/persist"
)

// An open Badger database wakes up ~40 times a second even when nothing
// happens (each of its two compactors polls on a 50 ms ticker; the caches
// and the flusher add more): in an idle store daemon that was ~200 context
// switches and 2.5–4.4 ms of CPU per second. Suspend closes the database
// while the Store stays usable: the next operation reopens it. The store
// daemon suspends its store when no client has been attached for a while
// (persist/daemon: Config.SuspendAfter) and so sleeps with no Badger
// goroutine left.
//
// While suspended the Store keeps the directory locked as Badger does (an
// exclusive flock on the directory, this process's pid in LOCK), so another
// process still gets an *InUseError naming this one; between Badger's
// release and this lock, and back, there are a few microseconds in which
// another process could take the directory — the next operation here then
// fails with its *InUseError, as if that process had come first.

// handle is a Store's database: open, or closed by Suspend and reopened by
// the next operation (acquire).
type handle struct {
	mu     sync.RWMutex // read-held by each operation; Suspend and reopen hold it
	db     *dgbadger.DB // nil while suspended
	opts   dgbadger.Options
	held   *os.File // the directory, flock-ed while suspended
	closed bool     // Close ran: never reopen
}

// acquire returns the open database (reopening a suspended one) for one
// operation, and the function that ends the operation. Errors are the
// Store's own (an *InUseError, persist.ErrClosed wrapped, a short message).
func (b *Store) acquire(op string) (*dgbadger.DB, func(), error) {
	for {
		b.h.mu.RLock()
		if db := b.h.db; db != nil {
			return db, b.h.mu.RUnlock, nil
		}
		closed := b.h.closed
		b.h.mu.RUnlock()
		if closed {
			return nil, nil, fmt.Errorf("persist: %s: %w", op, persist.ErrClosed)
		}
		b.h.mu.Lock()
		err := b.reopenLocked()
		b.h.mu.Unlock()
		if err != nil {
			return nil, nil, err
		}
		// Loop: a Suspend may have come between the unlock and the read lock.
	}
}

// ifOpen runs fn with the database if it is open (not suspended, not
// closed), holding it open meanwhile.
func (b *Store) ifOpen(fn func(db *dgbadger.DB)) {
	b.h.mu.RLock()
	defer b.h.mu.RUnlock()
	if b.h.db != nil && !b.h.closed {
		fn(b.h.db)
	}
}

// sync fsyncs Badger's logs (reopening a suspended database first: cheap,
// and nothing is then pending).
func (b *Store) sync(op string) error {
	db, done, err := b.acquire(op)
	if err != nil {
		return err
	}
	defer done()
	if err := db.Sync(); err != nil {
		return b.dbErr(op, err)
	}
	return nil
}

// Suspend closes the database, keeping the directory locked, until the next
// operation reopens it; it waits for the operations in flight. It does
// nothing on a closed, suspended or in-memory store. After an error the
// store is closed (Badger's Close failed: the next open replays its
// write-ahead log) or still open (the lock could not be kept).
func (b *Store) Suspend() error {
	if b.dir == "" {
		return nil
	}
	b.h.mu.Lock()
	defer b.h.mu.Unlock()
	if b.h.closed || b.h.db == nil {
		return nil
	}
	dir, err := os.Open(b.dir)
	if err != nil {
		return fmt.Errorf("persist: suspend: %w", err)
	}
	if err := b.h.db.Close(); err != nil {
		dir.Close()
		b.h.db = nil
		b.h.closed = true
		return b.dbErr("suspend", err)
	}
	b.h.db = nil
	if err := syscall.Flock(int(dir.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		dir.Close()
		return fmt.Errorf("persist: suspend: lock %s: %w", b.dir, err)
	}
	b.h.held = dir
	// Badger removed its pid file: say who holds the directory, as it does.
	_ = os.WriteFile(filepath.Join(b.dir, lockFile), []byte(strconv.Itoa(os.Getpid())+"\n"), 0o666)
	return nil
}

// Suspended reports whether the database is closed by Suspend (and not
// reopened since).
func (b *Store) Suspended() bool {
	b.h.mu.RLock()
	defer b.h.mu.RUnlock()
	return b.h.db == nil && !b.h.closed
}

// reopenLocked opens a suspended database again (b.h.mu held).
func (b *Store) reopenLocked() error {
	if b.h.db != nil || b.h.closed {
		return nil
	}
	b.h.releaseDir()
	db, err := dgbadger.Open(b.h.opts)
	if err != nil {
		if inUse := inUseError(b.dir, err); inUse != nil {
			return inUse
		}
		return &storeError{op: "reopen store " + b.dir, msg: shortMessage(err), err: err}
	}
	b.h.db = db
	return nil
}

// closeHandle closes the database for good (Close): an open one through
// Badger, a suspended one by letting go of the directory.
func (b *Store) closeHandle() error {
	b.h.mu.Lock()
	defer b.h.mu.Unlock()
	b.h.closed = true
	if b.h.db == nil {
		if b.h.held != nil {
			_ = os.Remove(filepath.Join(b.dir, lockFile))
		}
		b.h.releaseDir()
		return nil
	}
	return b.h.db.Close()
}

// releaseDir lets go of the directory lock Suspend took.
func (h *handle) releaseDir() {
	if h.held != nil {
		h.held.Close() // closing the descriptor drops the flock
		h.held = nil
	}
}
