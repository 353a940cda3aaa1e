package persist

import (
	"errors"
	"fmt"
	"strings"
)

// ErrCorrupt is matched (errors.Is) by errors about stored records that cannot be
// decoded. See CorruptError for how listings report them.
var ErrCorrupt = errors.New("corrupt record")

// ErrClosed is returned by every method of a store after Close.
var ErrClosed = errors.New("store is closed")

// CorruptError reports records a listing skipped because they could not be decoded.
//
// The listing methods (ListSessions, ListMessages, ListEvents) never stop at a
// corrupt record: they return every record that decodes, in order, together with a
// *CorruptError. So a caller that can live with a hole checks
// errors.Is(err, ErrCorrupt) and keeps the result; a caller that ignores the result
// on any error still sees a clear message instead of a crash.
type CorruptError struct {
	// Kind is the kind of record: "session", "message" or "event".
	Kind string
	// SessionID is the session the records belong to; empty for session records.
	SessionID string
	// Count is how many records were skipped.
	Count int
}

// Error returns one line, e.g. "persist: 2 corrupt message record(s) in session X skipped".
func (e *CorruptError) Error() string {
	if e.SessionID == "" {
		return fmt.Sprintf("persist: %d corrupt %s record(s) skipped", e.Count, e.Kind)
	}
	return fmt.Sprintf("persist: %d corrupt %s record(s) in session %s skipped",
		e.Count, e.Kind, e.SessionID)
}

// Is reports whether target is ErrCorrupt.
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

// corruptErr returns a *CorruptError for n skipped records, or nil when n is 0.
func corruptErr(kind, sessionID string, n int) error {
	if n == 0 {
		return nil
	}
	return &CorruptError{Kind: kind, SessionID: sessionID, Count: n}
}

// storeError is an error of the underlying database, shortened for people. Badger's
// messages can embed a hex dump of a key or value; Error keeps only the first line,
// cut to maxErrLen bytes, while Unwrap still reaches the original for errors.Is.
type storeError struct {
	op  string
	msg string
	err error
}

// maxErrLen bounds the database's part of an error message.
const maxErrLen = 160

func (e *storeError) Error() string { return "persist: " + e.op + ": " + e.msg }
func (e *storeError) Unwrap() error { return e.err }

// shortMessage is the first line of err's message, at most maxErrLen bytes.
func shortMessage(err error) string {
	msg := err.Error()
	if i := strings.IndexAny(msg, "\r\n"); i >= 0 {
		msg = msg[:i]
	}
	msg = strings.TrimRight(msg, " :")
	if len(msg) > maxErrLen {
		msg = msg[:maxErrLen] + "…"
	}
	return msg
}

// checkSessionID rejects ids that would break the key layout: empty, longer than
// 512 bytes, or containing '/' (the separator after the id in message and event keys).
func checkSessionID(id string) error {
	switch {
	case id == "":
		return errors.New("persist: empty session id")
	case len(id) > 512:
		return fmt.Errorf("persist: session id of %d bytes is too long", len(id))
	case strings.ContainsRune(id, '/'):
		return fmt.Errorf("persist: session id %q contains '/'", id)
	}
	return nil
}
