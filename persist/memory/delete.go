package memory

import (
	"context"
	"fmt"
	"slices"

	"pincer/persist"
	"pincer/persist/internal/record"
)

// DeleteSession deletes a session and everything stored under its id; an
// error wrapping persist.ErrNotFound when it had no session record.
func (s *Store) DeleteSession(ctx context.Context, id string) error {
	if err := record.CheckSessionID(id); err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	_, found := s.sessions[id]
	delete(s.sessions, id)
	delete(s.messages, id)
	delete(s.events, id)
	delete(s.leases, id)
	delete(s.checkpoints.cps, id)
	x := &s.extra
	delete(x.audit, id)
	delete(x.rules, id)
	x.all = slices.DeleteFunc(x.all, func(r memAuditRef) bool { return record.AuditKeySession(r.key) == id })
	if !found {
		return fmt.Errorf("persist: session %q: %w", id, persist.ErrNotFound)
	}
	return nil
}
