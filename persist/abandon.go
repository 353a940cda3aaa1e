package persist

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"pincer/core/event"
)

// Abandoned turns. When a client's connection to the daemon ends while it holds
// a session lease, its process exited in the middle of a turn (a normal turn
// releases its lease before it returns). The daemon then, still as that owner:
//
//   - answers every permission request of the turn left pending with a
//     permission.resolved deny (by "store-daemon"), so no later view inherits an
//     approval nobody can give;
//   - completes every tool call that started and never completed with an error
//     tool.completed, so each call has exactly one (the transcript is untouched:
//     the agent's repair gives the model InterruptedResult for it);
//   - ends the turn with turn.failed (reason internal) and marks the session
//     failed if it was running;
//   - releases the lease.
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
	_ = closeAbandonedTurn(ctx, s.store, sessionID, owner)
	_ = s.store.ReleaseLease(ctx, sessionID, owner)
}

// openTurn is what a session's last turn left unfinished.
type openTurn struct {
	id      string
	ended   bool
	pending []event.PermissionRequestedData // in request order
	started []event.ToolStartedData         // in start order
}

// lastTurn reads the state of the session's last turn from its events.
func lastTurn(evs []event.Event) openTurn {
	var t openTurn
	for _, ev := range evs {
		if ev.Type == event.TurnStarted {
			t = openTurn{id: ev.TurnID}
			continue
		}
		if t.id == "" || ev.TurnID != t.id {
			continue
		}
		switch ev.Type {
		case event.PermissionRequested:
			var d event.PermissionRequestedData
			if ev.Decode(&d) == nil {
				t.pending = append(t.pending, d)
			}
		case event.PermissionResolved:
			var d event.PermissionResolvedData
			if ev.Decode(&d) == nil {
				t.pending = slices.DeleteFunc(t.pending, func(p event.PermissionRequestedData) bool {
					return p.RequestID == d.RequestID
				})
			}
		case event.ToolStarted:
			var d event.ToolStartedData
			if ev.Decode(&d) == nil {
				t.started = append(t.started, d)
			}
		case event.ToolCompleted:
			var d event.ToolCompletedData
			if ev.Decode(&d) == nil {
				t.started = slices.DeleteFunc(t.started, func(p event.ToolStartedData) bool {
					return p.ToolCallID == d.ToolCallID
				})
			}
		case event.TurnCompleted, event.TurnFailed, event.TurnCancelled:
			t.ended = true
		}
	}
	return t
}

// closeAbandonedTurn writes the events that close the session's last turn, if
// it was left open by owner's process.
func closeAbandonedTurn(ctx context.Context, st ServedStore, sessionID, owner string) error {
	evs, err := st.ListEvents(ctx, sessionID, 0, 0)
	if err != nil && !errors.Is(err, ErrCorrupt) {
		return err
	}
	t := lastTurn(evs)
	if t.id == "" || t.ended {
		return nil
	}
	who := "the pincer process running this turn"
	if pid, _, ok := strings.Cut(strings.TrimPrefix(owner, "pid:"), "/"); ok && strings.HasPrefix(owner, "pid:") {
		who += " (pid " + pid + ")"
	}
	emit := func(typ event.Type, p any) error {
		ev, err := event.New(typ, sessionID, t.id, p)
		if err != nil {
			return err
		}
		ev.Timestamp = time.Now().UTC()
		_, err = st.AppendEventNext(ctx, ev)
		return err
	}
	for _, p := range t.pending {
		if err := emit(event.PermissionResolved, event.PermissionResolvedData{RequestID: p.RequestID,
			ToolCallID: p.ToolCallID, Decision: "deny", Scope: "once", By: abandonedBy,
			Reason: who + " ended before the request was answered"}); err != nil {
			return err
		}
	}
	for _, c := range t.started {
		if err := emit(event.ToolCompleted, event.ToolCompletedData{ToolCallID: c.ToolCallID, Name: c.Name,
			IsError: true, Output: who + " ended while the tool ran; its result was not recorded"}); err != nil {
			return err
		}
	}
	if err := emit(event.TurnFailed, event.TurnFailedData{Reason: event.ReasonInternal,
		Error: fmt.Sprintf("%s ended before the turn finished; continue the session to go on", who)}); err != nil {
		return err
	}
	sess, err := st.GetSession(ctx, sessionID)
	if err != nil || sess.Status != "running" {
		return nil
	}
	sess.Status, sess.UpdatedAt = "failed", time.Now().UTC()
	return st.PutSession(ctx, sess)
}
