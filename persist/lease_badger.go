package persist

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// Leases are TTL entries under l/<sessionID> whose value also carries ExpiresAt:
// Badger's TTL has one-second granularity and only removes the entry eventually,
// the value decides (rules in lease.go). Each call is one compare-and-set
// transaction, retried on conflict, so two owners racing for a free session
// cannot both win.

// AcquireLease gives the session to owner for ttl unless another owner's lease is
// live; it returns whether owner holds it and the lease that holds it.
func (b *Badger) AcquireLease(ctx context.Context, sessionID, owner string, ttl time.Duration) (bool, Lease, error) {
	const op = "acquire lease"
	if err := checkLease(sessionID, owner); err != nil {
		return false, Lease{}, err
	}
	if err := checkTTL(ttl); err != nil {
		return false, Lease{}, err
	}
	var (
		ok bool
		l  Lease
	)
	err := b.update(ctx, op, func(txn *badger.Txn) error {
		cur, found, err := b.readLease(txn, op, sessionID)
		if err != nil {
			return err
		}
		if ok, l = decideAcquire(cur, found, sessionID, owner, ttl, b.now()); !ok {
			return nil
		}
		return b.writeLease(txn, op, l, ttl)
	})
	if err != nil {
		return false, Lease{}, err
	}
	return ok, l, nil
}

// RenewLease extends owner's live lease by ttl from now; false when owner does not
// hold it (any more).
func (b *Badger) RenewLease(ctx context.Context, sessionID, owner string, ttl time.Duration) (bool, error) {
	const op = "renew lease"
	if err := checkLease(sessionID, owner); err != nil {
		return false, err
	}
	if err := checkTTL(ttl); err != nil {
		return false, err
	}
	var ok bool
	err := b.update(ctx, op, func(txn *badger.Txn) error {
		cur, found, err := b.readLease(txn, op, sessionID)
		if err != nil {
			return err
		}
		var l Lease
		if ok, l = decideRenew(cur, found, sessionID, owner, ttl, b.now()); !ok {
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
func (b *Badger) ReleaseLease(ctx context.Context, sessionID, owner string) error {
	const op = "release lease"
	if err := checkLease(sessionID, owner); err != nil {
		return err
	}
	return b.update(ctx, op, func(txn *badger.Txn) error {
		cur, found, err := b.readLease(txn, op, sessionID)
		if err != nil || !found || cur.Owner != owner {
			return err
		}
		if err := txn.Delete(leaseKey(sessionID)); err != nil {
			return b.dbErr(op, err)
		}
		return nil
	})
}

// readLease returns the stored lease; an undecodable one counts as absent (a lease
// is only a claim, and the next acquire overwrites it).
func (b *Badger) readLease(txn *badger.Txn, op, sessionID string) (Lease, bool, error) {
	val, found, err := b.get(txn, op, leaseKey(sessionID))
	if err != nil || !found {
		return Lease{}, false, err
	}
	l, err := decodeLease(val)
	if err != nil {
		return Lease{}, false, nil
	}
	return l, true, nil
}

// writeLease stores l as a TTL entry that outlives l.ExpiresAt by up to a second
// more than ttl, so Badger never drops it while the value still says it holds.
func (b *Badger) writeLease(txn *badger.Txn, op string, l Lease, ttl time.Duration) error {
	val, err := json.Marshal(l)
	if err != nil {
		return fmt.Errorf("persist: encode lease: %w", err)
	}
	return b.set(txn, op, badger.NewEntry(leaseKey(l.SessionID), val).WithTTL(ttl+time.Second))
}
