package record

import (
	"errors"
	"fmt"
	"strings"

	"pincer/persist"
)

// CheckSessionID rejects ids that would break the key layout: empty, longer than
// 512 bytes, or containing '/' (the separator after the id in message and event keys).
func CheckSessionID(id string) error {
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

// CorruptErr returns a *persist.CorruptError for n skipped records of a kind
// ("session", "message", "event", "audit"), or nil when n is 0.
func CorruptErr(kind, sessionID string, n int) error {
	if n == 0 {
		return nil
	}
	return &persist.CorruptError{Kind: kind, SessionID: sessionID, Count: n}
}

// MaxValue is the largest record a store on disk keeps (32 MB: Badger's value-log
// file size); the store daemon sizes its request bodies by it.
const MaxValue = 32 << 20
