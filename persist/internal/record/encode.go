package record

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/persist"
)

// Records are stored as JSON by every store, so Memory hands out the same values
// (and copies) as Badger: times lose their monotonic reading, an event's Data is
// its whole flat object after a round trip.

// NewMessageID returns 16 random hex characters.
func NewMessageID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go ≥ 1.24)
	return hex.EncodeToString(b[:])
}

// PrepareMessage stamps m as message seq of its session: Seq, and ID and CreatedAt
// (UTC now) when empty. It returns the message and its encoding.
func PrepareMessage(m message.Message, seq uint64, now time.Time) (message.Message, []byte, error) {
	m.Seq = seq
	if m.ID == "" {
		m.ID = NewMessageID()
	}
	if m.CreatedAt.IsZero() {
		m.CreatedAt = now.UTC()
	}
	b, err := json.Marshal(m)
	if err != nil {
		return message.Message{}, nil, fmt.Errorf("persist: encode message: %w", err)
	}
	return m, b, nil
}

// EncodeEvent checks ev and returns its flat JSON.
func EncodeEvent(ev event.Event) ([]byte, error) {
	if err := CheckSessionID(ev.SessionID); err != nil {
		return nil, err
	}
	if ev.Sequence == 0 {
		return nil, fmt.Errorf("persist: event %s of session %s has sequence 0", ev.Type, ev.SessionID)
	}
	b, err := json.Marshal(ev)
	if err != nil {
		return nil, fmt.Errorf("persist: encode event %s: %w", ev.Type, err)
	}
	return b, nil
}

// EncodeSession checks s and returns its JSON.
func EncodeSession(s persist.Session) ([]byte, error) {
	if err := CheckSessionID(s.ID); err != nil {
		return nil, err
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("persist: encode session %s: %w", s.ID, err)
	}
	return b, nil
}

// ErrUndecodable marks a value that failed to decode; listings count and skip it.
var ErrUndecodable = errors.New("undecodable value")

// DecodeSession decodes a stored session record.
func DecodeSession(b []byte) (persist.Session, error) {
	var s persist.Session
	if err := json.Unmarshal(b, &s); err != nil {
		return persist.Session{}, ErrUndecodable
	}
	return s, nil
}

// DecodeMessage decodes a stored message.
func DecodeMessage(b []byte) (message.Message, error) {
	var m message.Message
	if err := json.Unmarshal(b, &m); err != nil {
		return message.Message{}, ErrUndecodable
	}
	return m, nil
}

// DecodeEvent decodes a stored event (its flat JSON).
func DecodeEvent(b []byte) (event.Event, error) {
	var ev event.Event
	if err := json.Unmarshal(b, &ev); err != nil {
		return event.Event{}, ErrUndecodable
	}
	return ev, nil
}

// DecodeLease decodes a stored lease.
func DecodeLease(b []byte) (persist.Lease, error) {
	var l persist.Lease
	if err := json.Unmarshal(b, &l); err != nil {
		return persist.Lease{}, ErrUndecodable
	}
	return l, nil
}
