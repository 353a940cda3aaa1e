package record

import (
	"encoding/binary"
	"math"
	"time"
)

// Key layout of the stores (Badger writes these keys; Memory orders by them). Every key starts with its kind and a '/'; numbers
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
// Session ids never contain '/' (CheckSessionID), so "m/<id>/" is the prefix of
// exactly one session's messages.
const (
	KindSession = 's' // session record
	KindRecency = 'r' // recency index
	KindMessage = 'm' // message
	KindEvent   = 'e' // event
	KindLease   = 'l' // lease
)

// SimpleKey is "<kind>/<id>".
func SimpleKey(kind byte, id string) []byte {
	k := make([]byte, 0, 2+len(id))
	k = append(k, kind, '/')
	return append(k, id...)
}

// SessionKey is the key of a session record.
func SessionKey(id string) []byte { return SimpleKey(KindSession, id) }

// LeaseKey is the key of a session's lease.
func LeaseKey(id string) []byte { return SimpleKey(KindLease, id) }

// RecencyPrefix is the prefix of every recency index key.
var RecencyPrefix = []byte{KindRecency, '/'}

// RecencyKey is the index key of a session updated at t.
func RecencyKey(id string, t time.Time) []byte {
	k := make([]byte, 0, 2+8+len(id))
	k = append(k, RecencyPrefix...)
	k = binary.BigEndian.AppendUint64(k, ^TimeNanos(t))
	return append(k, id...)
}

// RecencyID is the session id of a recency index key, "" if the key is malformed.
func RecencyID(key []byte) string {
	if len(key) <= len(RecencyPrefix)+8 {
		return ""
	}
	return string(key[len(RecencyPrefix)+8:])
}

// TimeNanos is t as nanoseconds since 1970, clipped to [0, MaxInt64] so the zero
// time and times out of range still sort.
func TimeNanos(t time.Time) uint64 {
	if t.IsZero() || t.Unix() < 0 {
		return 0
	}
	if t.Unix() >= math.MaxInt64/int64(time.Second) {
		return math.MaxInt64
	}
	return uint64(t.UnixNano())
}

// SeqPrefix is "<kind>/<sessionID>/", the prefix of a session's messages or events.
func SeqPrefix(kind byte, sessionID string) []byte {
	k := make([]byte, 0, 3+len(sessionID)+8)
	k = append(k, kind, '/')
	k = append(k, sessionID...)
	return append(k, '/')
}

// SeqKey is the key of record seq of a session.
func SeqKey(kind byte, sessionID string, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(SeqPrefix(kind, sessionID), seq)
}

// SeqOf parses the sequence of a key under prefix; ok is false for a malformed key.
func SeqOf(prefix, key []byte) (uint64, bool) {
	if len(key) != len(prefix)+8 {
		return 0, false
	}
	return binary.BigEndian.Uint64(key[len(prefix):]), true
}

// SeekLast is the key a reverse iterator seeks to find the last record under prefix:
// the prefix followed by the highest possible sequence.
func SeekLast(prefix []byte) []byte {
	return binary.BigEndian.AppendUint64(append([]byte(nil), prefix...), math.MaxUint64)
}
