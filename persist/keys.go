package persist

import (
	"encoding/binary"
	"math"
	"time"
)

// Key layout of the Badger store. Every key starts with its kind and a '/'; numbers
// are big-endian so byte order is numeric order.
//
//	s/<sessionID>                     session record (JSON Session)
//	r/<^UpdatedAt nanos><sessionID>   recency index, empty value; the nanoseconds
//	                                  are inverted (8 bytes), so a forward scan is
//	                                  newest first
//	m/<sessionID>/<seq>               message (JSON message.Message), seq 8 bytes
//	e/<sessionID>/<seq>               event (flat JSON of event.Event), seq 8 bytes
//	l/<sessionID>                     lease (JSON Lease), a TTL entry
//	a/, A/, p/                        audit trail and session permission rules
//	                                  (layout in audit.go)
//
// Session ids never contain '/' (checkSessionID), so "m/<id>/" is the prefix of
// exactly one session's messages.
const (
	kindSession = 's'
	kindRecency = 'r'
	kindMessage = 'm'
	kindEvent   = 'e'
	kindLease   = 'l'
)

// simpleKey is "<kind>/<id>".
func simpleKey(kind byte, id string) []byte {
	k := make([]byte, 0, 2+len(id))
	k = append(k, kind, '/')
	return append(k, id...)
}

func sessionKey(id string) []byte { return simpleKey(kindSession, id) }
func leaseKey(id string) []byte   { return simpleKey(kindLease, id) }

// recencyPrefix is the prefix of every recency index key.
var recencyPrefix = []byte{kindRecency, '/'}

// recencyKey is the index key of a session updated at t.
func recencyKey(id string, t time.Time) []byte {
	k := make([]byte, 0, 2+8+len(id))
	k = append(k, recencyPrefix...)
	k = binary.BigEndian.AppendUint64(k, ^timeNanos(t))
	return append(k, id...)
}

// recencyID is the session id of a recency index key, "" if the key is malformed.
func recencyID(key []byte) string {
	if len(key) <= len(recencyPrefix)+8 {
		return ""
	}
	return string(key[len(recencyPrefix)+8:])
}

// timeNanos is t as nanoseconds since 1970, clipped to [0, MaxInt64] so the zero
// time and times out of range still sort.
func timeNanos(t time.Time) uint64 {
	if t.IsZero() || t.Unix() < 0 {
		return 0
	}
	if t.Unix() >= math.MaxInt64/int64(time.Second) {
		return math.MaxInt64
	}
	return uint64(t.UnixNano())
}

// seqPrefix is "<kind>/<sessionID>/", the prefix of a session's messages or events.
func seqPrefix(kind byte, sessionID string) []byte {
	k := make([]byte, 0, 3+len(sessionID)+8)
	k = append(k, kind, '/')
	k = append(k, sessionID...)
	return append(k, '/')
}

// seqKey is the key of record seq of a session.
func seqKey(kind byte, sessionID string, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(seqPrefix(kind, sessionID), seq)
}

// seqOf parses the sequence of a key under prefix; ok is false for a malformed key.
func seqOf(prefix, key []byte) (uint64, bool) {
	if len(key) != len(prefix)+8 {
		return 0, false
	}
	return binary.BigEndian.Uint64(key[len(prefix):]), true
}

// seekLast is the key a reverse iterator seeks to find the last record under prefix:
// the prefix followed by the highest possible sequence.
func seekLast(prefix []byte) []byte {
	return binary.BigEndian.AppendUint64(append([]byte(nil), prefix...), math.MaxUint64)
}
