package persist

import (
	"errors"
	"time"
)

// The lease rules, shared by both stores. A stored lease counts only while now is
// before its ExpiresAt: Badger's TTL removes expired entries eventually (with
// one-second granularity), the value decides.

// checkLease validates the session and owner of a lease call.
func checkLease(sessionID, owner string) error {
	if err := checkSessionID(sessionID); err != nil {
		return err
	}
	if owner == "" {
		return errors.New("persist: lease needs an owner")
	}
	return nil
}

// checkTTL validates a lease duration.
func checkTTL(ttl time.Duration) error {
	if ttl <= 0 {
		return errors.New("persist: lease ttl must be positive")
	}
	return nil
}

// live reports whether a stored lease (found) still holds at now.
func live(cur Lease, found bool, now time.Time) bool {
	return found && now.Before(cur.ExpiresAt)
}

// decideAcquire applies AcquireLease to the stored lease: owner gets a fresh lease
// unless another owner's lease is live, which is then returned.
func decideAcquire(cur Lease, found bool, sessionID, owner string, ttl time.Duration, now time.Time) (bool, Lease) {
	if live(cur, found, now) && cur.Owner != owner {
		return false, cur
	}
	return true, Lease{SessionID: sessionID, Owner: owner, ExpiresAt: now.Add(ttl).UTC()}
}

// decideRenew applies RenewLease: only owner's live lease is extended. An expired
// lease is not renewed even if nobody took it — the owner lost it and must acquire.
func decideRenew(cur Lease, found bool, sessionID, owner string, ttl time.Duration, now time.Time) (bool, Lease) {
	if !live(cur, found, now) || cur.Owner != owner {
		return false, Lease{}
	}
	return true, Lease{SessionID: sessionID, Owner: owner, ExpiresAt: now.Add(ttl).UTC()}
}
