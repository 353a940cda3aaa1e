package app

import (
	"context"

	"pincer/core/agent"
	"pincer/persist"
)

// Session statuses as the browser shows them (Session.Status).
const (
	StatusIdle        = "idle"
	StatusRunning     = "running"
	StatusFailed      = "failed"
	StatusCancelled   = "cancelled"
	StatusInterrupted = "interrupted"
)

// SessionStatus is a session's status from its record's and whether a live
// process holds its lease (held): a record that says running with nobody
// holding it was left by a process that ended mid-turn (interrupted); a
// session held is running whatever its record says (a turn just began). A
// pure function: the table test holds it.
func SessionStatus(record string, held bool) string {
	switch {
	case held:
		return StatusRunning
	case record == StatusRunning:
		return StatusInterrupted
	case record == "":
		return StatusIdle
	}
	return record
}

// sessionStatus reads the lease of s to give its SessionStatus; the lease is
// read only for a record that says running (the others are decided by their
// record, so listing hundreds of sessions costs no lease reads).
func (b *Backend) sessionStatus(ctx context.Context, s persist.Session) string {
	if s.Status != StatusRunning {
		return SessionStatus(s.Status, false)
	}
	l, found, err := b.Store.GetLease(ctx, s.ID)
	return SessionStatus(s.Status, err == nil && found && !agent.OwnerGone(l.Owner))
}
