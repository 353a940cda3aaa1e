package record

import (
	"context"
	"sync"
)

// Sequencing and waiting, the store's half of the event log (core/event.Log uses
// them when a store has them, see event.SequencingStore and event.WaitingStore):
//
//   - AppendEventNext numbers an event itself: the next sequence of its session,
//     assigned and stored atomically by the one process that owns the store, so
//     any number of processes appending through it (the store daemon) never fork
//     or skip a session's numbering.
//   - WaitEvents returns as soon as a session has an event after a cursor; every
//     append (AppendEvent and AppendEventNext) wakes the waiters of its session.

// Notifier wakes the waiters of a session. Its zero value is ready to use. All
// waiters of a session share one channel, closed (and forgotten) at the next
// append, so a waiter that gives up leaves nothing behind.
type Notifier struct {
	mu sync.Mutex
	ch map[string]chan struct{}
}

// Wait returns a channel closed at the session's next append. Take it before
// checking for events, so that no append is missed in between.
func (n *Notifier) Wait(sessionID string) <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.ch == nil {
		n.ch = map[string]chan struct{}{}
	}
	ch, ok := n.ch[sessionID]
	if !ok {
		ch = make(chan struct{})
		n.ch[sessionID] = ch
	}
	return ch
}

// Notify wakes every waiter of the session.
func (n *Notifier) Notify(sessionID string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if ch, ok := n.ch[sessionID]; ok {
		close(ch)
		delete(n.ch, sessionID)
	}
}

// WaitEvents is a store's WaitEvents over a Notifier and a way to read the last sequence.
func WaitEvents(ctx context.Context, n *Notifier, sessionID string, after uint64,
	last func(context.Context, string) (uint64, error)) error {
	if err := CheckSessionID(sessionID); err != nil {
		return err
	}
	for {
		ch := n.Wait(sessionID)
		seq, err := last(ctx, sessionID)
		if err != nil {
			return err
		}
		if seq > after {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}
