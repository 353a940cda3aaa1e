package memory

import (
	"context"

	"pincer/persist"
	"pincer/persist/internal/record"
)

// GetLease returns the session's live lease; found is false when it is free.
func (s *Store) GetLease(ctx context.Context, sessionID string) (persist.Lease, bool, error) {
	if err := record.CheckSessionID(sessionID); err != nil {
		return persist.Lease{}, false, err
	}
	if err := s.lock(ctx); err != nil {
		return persist.Lease{}, false, err
	}
	defer s.mu.Unlock()
	cur, found := s.leases[sessionID]
	l, ok := record.Live(cur, found, s.now())
	return l, ok, nil
}
