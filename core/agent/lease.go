package agent

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// acquireLease takes the session lease for this agent. A lease whose owner is a pincer
// process that no longer exists (killed mid-turn) is stale and taken over at once,
// rather than waiting out its TTL; any other holder makes it fail with ErrLeaseHeld.
func (a *Agent) acquireLease(ctx context.Context, sessionID string) error {
	for attempt := 0; attempt < 2; attempt++ {
		ok, holder, err := a.cfg.Store.AcquireLease(ctx, sessionID, a.owner, a.cfg.LeaseTTL)
		if err != nil {
			return fmt.Errorf("session lease: %w", err)
		}
		if ok {
			return nil
		}
		if attempt == 0 && ownerDead(holder.Owner) {
			if err := a.cfg.Store.ReleaseLease(ctx, sessionID, holder.Owner); err != nil {
				return fmt.Errorf("session lease: %w", err)
			}
			continue
		}
		return fmt.Errorf("%w: %s (held by %s until %s)", ErrLeaseHeld, sessionID,
			holder.Owner, holder.ExpiresAt.Format(time.RFC3339))
	}
	return fmt.Errorf("%w: %s", ErrLeaseHeld, sessionID)
}

// ownerDead reports whether a lease owner of the form "pid:N/..." names a process
// that does not exist on this machine. Owners of any other form are presumed alive.
func ownerDead(owner string) bool {
	rest, ok := strings.CutPrefix(owner, "pid:")
	if !ok {
		return false
	}
	pidText, _, _ := strings.Cut(rest, "/")
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 {
		return false
	}
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// heartbeat renews the lease every TTL/3 until the returned stop is called; a failed
// renewal cancels the turn with errLeaseLost.
func (a *Agent) heartbeat(ctx context.Context, sessionID string, cancel context.CancelCauseFunc) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(a.cfg.LeaseTTL / 3)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				ok, err := a.cfg.Store.RenewLease(ctx, sessionID, a.owner, a.cfg.LeaseTTL)
				if err != nil && ctx.Err() != nil {
					return
				}
				if err != nil || !ok {
					cancel(errLeaseLost)
					return
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}
