package remote

import (
	"context"
	"errors"
	"strings"
	"time"

	"pincer/core/event"
	"pincer/persist"
)

// Abandoned turns. When a client's connection to the daemon ends while it holds
// a session lease, its process exited in the middle of a turn (a normal turn
// releases its lease before it returns). The daemon then, still as that owner,
// appends the events that close the turn (core/event.CloseTurn: a deny for
// each pending request, by "store-daemon", an error tool.completed for each
// started tool call, turn.failed with reason internal), marks the session
// failed if it was running, and releases the lease. What it cannot read on
// the way (a corrupt or malformed event) goes to the server's log.
//
// Requests for the session's lease wait meanwhile (Server.waitCleaning), so the
// next turn's events come after these.

// abandonedBy is the By of the permission.resolved events the daemon writes.
const abandonedBy = "store-daemon"

// abandon releases owner's lease of a session whose client is gone and closes
// the turn it left running.
func (s *Server) abandon(sessionID, owner string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ch := make(chan struct{})
	for {
		s.mu.Lock()
		prev := s.cleaning[sessionID]
		if prev == nil {
			s.cleaning[sessionID] = ch
			s.mu.Unlock()
			break
		}
		s.mu.Unlock()
		select {
		case <-prev:
		case <-ctx.Done():
			return
		}
	}
	defer func() {
		s.mu.Lock()
		delete(s.cleaning, sessionID)
		s.mu.Unlock()
		close(ch)
	}()
	// Only a lease the owner still holds says its turn was left running.
	held, err := s.store.RenewLease(ctx, sessionID, owner, time.Minute)
	if err != nil || !held {
		return
	}
	if err := s.closeAbandonedTurn(ctx, sessionID, owner); err != nil {
		s.logf("closing the turn of session %s left by %s: %v", sessionID, owner, err)
	}
	_ = s.store.ReleaseLease(ctx, sessionID, owner)
}

// closeAbandonedTurn writes the events that close the session's last turn, if
// it was left open by owner's process. Events it could not read are logged;
// the turn is closed as far as the rest of the log tells.
func (s *Server) closeAbandonedTurn(ctx context.Context, sessionID, owner string) error {
	evs, err := s.store.ListEvents(ctx, sessionID, 0, 0)
	if err != nil && !errors.Is(err, persist.ErrCorrupt) {
		return err
	}
	if err != nil {
		s.logf("closing the turn of session %s: %v", sessionID, err)
	}
	who := "the pincer process running this turn"
	if pid, _, ok := strings.Cut(strings.TrimPrefix(owner, "pid:"), "/"); ok && strings.HasPrefix(owner, "pid:") {
		who += " (pid " + pid + ")"
	}
	closing, err := event.CloseTurn(evs, event.Closer{By: abandonedBy, Who: who})
	if err != nil {
		s.logf("closing the turn of session %s: %v", sessionID, err)
	}
	if len(closing) == 0 {
		return nil
	}
	for _, ev := range closing {
		ev.Timestamp = time.Now().UTC()
		if _, err := s.store.AppendEventNext(ctx, ev); err != nil {
			return err
		}
	}
	sess, err := s.store.GetSession(ctx, sessionID)
	if err != nil || sess.Status != "running" {
		return nil
	}
	sess.Status, sess.UpdatedAt = "failed", time.Now().UTC()
	return s.store.PutSession(ctx, sess)
}
