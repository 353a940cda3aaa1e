package memory

import (
	"context"

	"pincer/core/event"
	"pincer/persist/internal/record"
)

// AppendEventNext stores ev as the next event of its session: it sets Sequence
// (the last stored one + 1) and returns ev as stored. ev.Timestamp is kept, in
// UTC (a zero one is set to now).
func (s *Store) AppendEventNext(ctx context.Context, ev event.Event) (event.Event, error) {
	if err := record.CheckSessionID(ev.SessionID); err != nil {
		return event.Event{}, err
	}
	if ev.Timestamp.IsZero() {
		ev.Timestamp = s.now().UTC()
	}
	if err := s.lock(ctx); err != nil {
		return event.Event{}, err
	}
	evs := s.events[ev.SessionID]
	if evs == nil {
		evs = &memEvents{data: map[uint64][]byte{}}
		s.events[ev.SessionID] = evs
	}
	ev.Sequence = 1
	if n := len(evs.seqs); n > 0 {
		ev.Sequence = evs.seqs[n-1] + 1
	}
	b, err := record.EncodeEvent(ev)
	if err != nil {
		s.mu.Unlock()
		return event.Event{}, err
	}
	evs.seqs = append(evs.seqs, ev.Sequence)
	evs.data[ev.Sequence] = b
	s.mu.Unlock()
	s.notify.Notify(ev.SessionID)
	ev.Timestamp = ev.Timestamp.UTC()
	return ev, nil
}

// WaitEvents returns nil as soon as the session has an event with a sequence
// greater than after, or ctx.Err() when ctx ends first.
func (s *Store) WaitEvents(ctx context.Context, sessionID string, after uint64) error {
	return record.WaitEvents(ctx, &s.notify, sessionID, after, s.LastEventSequence)
}
