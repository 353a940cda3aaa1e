package badger

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	dgbadger "github.com/dgraph-io/badger/v4"

	"pincer/persist"
	"pincer/persist/internal/record"
)

// Leases are TTL entries under l/<sessionID> whose value also carries ExpiresAt:
// Badger's TTL has one-second granularity and only removes the entry eventually,
// the value decides (rules in lease.go). Each call is one compare-and-set
// transaction, retried on conflict, so two owners racing for a free session
// cannot both win.

// AcquireLease gives the session to owner for ttl unless another owner's lease is
// live; it returns whether owner holds it and the lease that holds it.
func (b *Store) AcquireLease(ctx context.Context, sessionID, owner string, ttl time.Duration) (bool, persist.Lease, error) {
	const op = "acquire lease"
	if err := record.CheckLease(sessionID, owner); err != nil {
		return false, persist.Lease{}, err
	}
	if err := record.CheckTTL(ttl); err != nil {
		return false, persist.Lease{}, err
	}
	var (
		ok bool
		l  persist.Lease
	)
	err := b.update(ctx, op, func(txn *dgbadger.Txn) error {
		cur, found, err := b.readLease(txn, op, sessionID)
		if err != nil {
			return err
		}
		if ok, l = record.DecideAcquire(cur, found, sessionID, owner, ttl, b.now()); !ok {
			return nil
		}
		return b.writeLease(txn, op, l, ttl)
	})
	if err != nil {
		return false, persist.Lease{}, err
	}
	return ok, l, nil
}

// RenewLease extends owner's live lease by ttl from now; false when owner does not
// hold it (any more).
func (b *Store) RenewLease(ctx context.Context, sessionID, owner string, ttl time.Duration) (bool, error) {
	const op = "renew lease"
	if err := record.CheckLease(sessionID, owner); err != nil {
		return false, err
	}
	if err := record.CheckTTL(ttl); err != nil {
		return false, err
	}
	var ok bool
	err := b.update(ctx, op, func(txn *dgbadger.Txn) error {
		cur, found, err := b.readLease(txn, op, sessionID)
		if err != nil {
			return err
		}
		var l persist.Lease
		if ok, l = record.DecideRenew(cur, found, sessionID, owner, ttl, b.now()); !ok {
			return nil
		}
		return b.writeLease(txn, op, l, ttl)
	})
	if err != nil {
		return false, err
	}
	return ok, nil
}

// ReleaseLease frees the session if owner holds it; otherwise it does nothing.
func (b *Store) ReleaseLease(ctx context.Context, sessionID, owner string) error {
	const op = "release lease"
	if err := record.CheckLease(sessionID, owner); err != nil {
		return err
	}
	return b.update(ctx, op, func(txn *dgbadger.Txn) error {
		cur, found, err := b.readLease(txn, op, sessionID)
		if err != nil || !found || cur.Owner != owner {
			return err
		}
		if err := txn.Delete(record.LeaseKey(sessionID)); err != nil {
			return b.dbErr(op, err)
		}
		return nil
	})
}

// readLease returns the stored lease; an undecodable one counts as absent (a lease
// is only a claim, and the next acquire overwrites it).
func (b *Store) readLease(txn *dgbadger.Txn, op, sessionID string) (persist.Lease, bool, error) {
	val, found, err := b.get(txn, op, record.LeaseKey(sessionID))
	if err != nil || !found {
		return persist.Lease{}, false, err
	}
	l, err := record.DecodeLease(val)
	if err != nil {
		return persist.Lease{}, false, nil
	}
	return l, true, nil
}

// writeLease stores l as a TTL entry that outlives l.ExpiresAt by up to a second
// more than ttl, so Badger never drops it while the value still says it holds.
func (b *Store) writeLease(txn *dgbadger.Txn, op string, l persist.Lease, ttl time.Duration) error {
	val, err := json.Marshal(l)
	if err != nil {
		return fmt.Errorf("persist: encode lease: %w", err)
	}
	return b.set(txn, op, dgbadger.NewEntry(record.LeaseKey(l.SessionID), val).WithTTL(ttl+time.Second))
}
