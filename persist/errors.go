package persist

import (
	"errors"
	"fmt"
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

// ErrInUse is matched (errors.Is) by the error of opening a store directory
// that another process holds (persist/badger's InUseError).
var ErrInUse = errors.New("store is in use by another process")
