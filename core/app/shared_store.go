package app

import (
	"context"
	"errors"
	"fmt"

	"pincer/core/agent"
	"pincer/core/event"
	"pincer/core/message"
	"pincer/persist"
)

// SharedStore is one open store that several Runs of one process share
// (`pincer serve`: one Run per workspace, StartShared), and the reads a front
// end makes of it that no Run owns: every session, one session, a session's
// transcript, the log of any session (a workbench's or `pincer run`'s in
// another process too: the store numbers and wakes). Safe for concurrent use.
type SharedStore struct {
	store persist.Store
	log   *event.Log
}

// ErrNoSession is SharedStore.Session's error for an ID the store does not hold.
var ErrNoSession = errors.New("no such session")

// OpenSharedStore opens the store as OpenStore does (through the store
// daemon unless PINCER_NO_DAEMON is set). The caller closes it after the
// Runs started on it.
func OpenSharedStore() (*SharedStore, error) {
	s, err := OpenStore()
	if err != nil {
		return nil, err
	}
	return &SharedStore{store: s, log: event.NewLog(s)}, nil
}

// StartShared is Start over ss's store instead of one of the Run's own: the
// Run's Close leaves it open.
func (s *Setup) StartShared(ctx context.Context, approver agent.Approver, ss *SharedStore) (*Run, error) {
	return s.start(ctx, approver, ss.store)
}

// Close closes the store.
func (ss *SharedStore) Close() error { return ss.store.Close() }

// Log is the event log of every session over the shared store: read from a
// cursor, wait for more (Follow).
func (ss *SharedStore) Log() *event.Log { return ss.log }

// Sessions lists up to limit stored sessions, most recently updated first
// (limit <= 0: all), with their status (Backend.Sessions).
func (ss *SharedStore) Sessions(ctx context.Context, limit int) ([]Session, error) {
	return (&Backend{Store: ss.store}).Sessions(ctx, limit)
}

// Session is one stored session with its status; ErrNoSession (wrapped) when
// the store has none of that ID.
func (ss *SharedStore) Session(ctx context.Context, id string) (Session, error) {
	s, err := ss.store.GetSession(ctx, id)
	if errors.Is(err, persist.ErrNotFound) {
		return Session{}, fmt.Errorf("%w: %s", ErrNoSession, id)
	}
	if err != nil {
		return Session{}, err
	}
	b := &Backend{Store: ss.store}
	return sessionOf(s, b.sessionStatus(ctx, s)), nil
}

// Transcript is a session's stored messages, in order.
func (ss *SharedStore) Transcript(ctx context.Context, id string) ([]message.Message, error) {
	return ss.store.ListMessages(ctx, id)
}

// Holder is who holds a session's lease now, for people ("pid 4242 (pincer
// on box)"), when it is a live process other than those owned reports; ""
// when free, stale or held by one of owned's agents.
func (ss *SharedStore) Holder(ctx context.Context, id string, owned func(owner string) bool) (string, error) {
	l, found, err := ss.store.GetLease(ctx, id)
	if err != nil || !found || agent.OwnerGone(l.Owner) || (owned != nil && owned(l.Owner)) {
		return "", err
	}
	return agent.DescribeOwner(l.Owner), nil
}
