package persist

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"pincer/core/event"
	"pincer/core/message"
)

// Records are stored as JSON by both stores, so Memory hands out the same values
// (and copies) as Badger: times lose their monotonic reading, an event's Data is
// its whole flat object after a round trip.

// newMessageID returns 16 random hex characters.
func newMessageID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go ≥ 1.24)
	return hex.EncodeToString(b[:])
}

// prepareMessage stamps m as message seq of its session: Seq, and ID and CreatedAt
// (UTC now) when empty. It returns the message and its encoding.
func prepareMessage(m message.Message, seq uint64, now time.Time) (message.Message, []byte, error) {
	m.Seq = seq
	if m.ID == "" {
		m.ID = newMessageID()
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

// encodeEvent checks ev and returns its flat JSON.
func encodeEvent(ev event.Event) ([]byte, error) {
	if err := checkSessionID(ev.SessionID); err != nil {
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

// encodeSession checks s and returns its JSON.
func encodeSession(s Session) ([]byte, error) {
	if err := checkSessionID(s.ID); err != nil {
		return nil, err
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("persist: encode session %s: %w", s.ID, err)
	}
	return b, nil
}

// errUndecodable marks a value that failed to decode; listings count and skip it.
var errUndecodable = errors.New("undecodable value")

func decodeSession(b []byte) (Session, error) {
	var s Session
	if err := json.Unmarshal(b, &s); err != nil {
		return Session{}, errUndecodable
	}
	return s, nil
}

func decodeMessage(b []byte) (message.Message, error) {
	var m message.Message
	if err := json.Unmarshal(b, &m); err != nil {
		return message.Message{}, errUndecodable
	}
	return m, nil
}

func decodeEvent(b []byte) (event.Event, error) {
	var ev event.Event
	if err := json.Unmarshal(b, &ev); err != nil {
		return event.Event{}, errUndecodable
	}
	return ev, nil
}

func decodeLease(b []byte) (Lease, error) {
	var l Lease
	if err := json.Unmarshal(b, &l); err != nil {
		return Lease{}, errUndecodable
	}
	return l, nil
}
