package record

import (
	"errors"
	"time"

	"pincer/persist"
)

// The lease rules, shared by the stores. A stored lease counts only while now is
// before its ExpiresAt: Badger's TTL removes expired entries eventually (with
// one-second granularity), the value decides.

// CheckLease validates the session and owner of a lease call.
func CheckLease(sessionID, owner string) error {
	if err := CheckSessionID(sessionID); err != nil {
		return err
	}
	if owner == "" {
		return errors.New("persist: lease needs an owner")
	}
	return nil
}

// CheckTTL validates a lease duration.
func CheckTTL(ttl time.Duration) error {
	if ttl <= 0 {
		return errors.New("persist: lease ttl must be positive")
	}
	return nil
}

// live reports whether a stored lease (found) still holds at now.
func live(cur persist.Lease, found bool, now time.Time) bool {
	return found && now.Before(cur.ExpiresAt)
}

// DecideAcquire applies AcquireLease to the stored lease: owner gets a fresh lease
// unless another owner's lease is live, which is then returned.
func DecideAcquire(cur persist.Lease, found bool, sessionID, owner string, ttl time.Duration, now time.Time) (bool, persist.Lease) {
	if live(cur, found, now) && cur.Owner != owner {
		return false, cur
	}
	return true, persist.Lease{SessionID: sessionID, Owner: owner, ExpiresAt: now.Add(ttl).UTC()}
}

// DecideRenew applies RenewLease: only owner's live lease is extended. An expired
// lease is not renewed even if nobody took it — the owner lost it and must acquire.
func DecideRenew(cur persist.Lease, found bool, sessionID, owner string, ttl time.Duration, now time.Time) (bool, persist.Lease) {
	if !live(cur, found, now) || cur.Owner != owner {
		return false, persist.Lease{}
	}
	return true, persist.Lease{SessionID: sessionID, Owner: owner, ExpiresAt: now.Add(ttl).UTC()}
}

// Live returns the stored lease (found) when it still holds at now: what
// GetLease reports.
func Live(cur persist.Lease, found bool, now time.Time) (persist.Lease, bool) {
	if !live(cur, found, now) {
		return persist.Lease{}, false
	}
	return cur, true
}
