// Package ctxwait is a wait that a context can end: the one sleep of the
// retry loops (provider requests, store transactions) and the test servers.
package ctxwait

import (
	"context"
	"time"
)

// Sleep waits d, or until ctx ends: it returns ctx.Err() then (at once when
// ctx has ended already or d <= 0 and ctx has ended), nil after d.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
