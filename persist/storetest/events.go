package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/persist"
)

// The event part of the contract suite (see contract_test.go).

// appendEvents stores events 1..n of a session, as the event log would.
func appendEvents(t testing.TB, s persist.Store, sid string, from, to uint64) {
	t.Helper()
	for seq := from; seq <= to; seq++ {
		ev, err := event.New(event.MessageDelta, sid, "t1",
			event.MessageDeltaData{MessageID: "m1", Delta: fmt.Sprintf("d%d", seq), Kind: "text"})
		if err != nil {
			t.Fatal(err)
		}
		ev.Sequence, ev.Timestamp = seq, t0.Add(time.Duration(seq)*time.Millisecond)
		if err := s.AppendEvent(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
	}
}

// seqs lists the sequences of evs.
func seqs(evs []event.Event) []uint64 {
	out := []uint64{}
	for _, ev := range evs {
		out = append(out, ev.Sequence)
	}
	return out
}

func testEvents(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	if last, err := s.LastEventSequence(ctx, "s"); err != nil || last != 0 {
		t.Fatalf("LastEventSequence(empty) = %d, %v", last, err)
	}
	appendEvents(t, s, "s", 1, 10)
	appendEvents(t, s, "s2", 1, 3)
	check := func(after uint64, limit int, want string) {
		t.Helper()
		evs, err := s.ListEvents(ctx, "s", after, limit)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(seqs(evs)); got != want {
			t.Fatalf("ListEvents(after %d, limit %d) = %s, want %s", after, limit, got, want)
		}
	}
	check(3, 4, "[4 5 6 7]")
	check(8, 0, "[9 10]")
	check(0, 2, "[1 2]")
	check(10, 0, "[]")
	if h.Reopen != nil {
		s = h.reopen(t, s)
	}
	if last, err := s.LastEventSequence(ctx, "s"); err != nil || last != 10 {
		t.Fatalf("LastEventSequence = %d, %v", last, err)
	}
	evs, err := s.ListEvents(ctx, "s", 4, 1)
	if err != nil || len(evs) != 1 {
		t.Fatalf("ListEvents = %v, %v", evs, err)
	}
	var d event.MessageDeltaData
	if err := evs[0].Decode(&d); err != nil || d.Delta != "d5" || evs[0].Type != event.MessageDelta ||
		evs[0].TurnID != "t1" || !evs[0].Timestamp.Equal(t0.Add(5*time.Millisecond)) {
		t.Fatalf("event 5 = %+v (%+v, %v)", evs[0], d, err)
	}
	// A stored sequence is never written twice.
	ev, _ := event.New(event.TurnStarted, "s", "t2", event.TurnStartedData{Input: "x"})
	ev.Sequence = 5
	if err := s.AppendEvent(ctx, ev); !errors.Is(err, persist.ErrDuplicate) {
		t.Fatalf("duplicate AppendEvent: %v, want persist.ErrDuplicate", err)
	}
	ev.Sequence = 0
	if err := s.AppendEvent(ctx, ev); err == nil {
		t.Fatal("AppendEvent with sequence 0 succeeded")
	}
	check(4, 1, "[5]")
}

func testEventLogOverStore(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	log := event.NewLog(s)
	for i := range 3 {
		ev, err := log.Emit(ctx, event.TurnStarted, "s", "t", event.TurnStartedData{Input: fmt.Sprint(i)})
		if err != nil || ev.Sequence != uint64(i+1) {
			t.Fatalf("Emit = %+v, %v", ev, err)
		}
	}
	if h.Reopen != nil {
		s = h.reopen(t, s)
		log = event.NewLog(s)
	}
	ev, err := log.Emit(ctx, event.TurnCompleted, "s", "t", event.TurnCompletedData{StopReason: "end"})
	if err != nil || ev.Sequence != 4 {
		t.Fatalf("Emit after reopen = %+v, %v", ev, err)
	}
}

func testConcurrentDuplicateEvent(t *testing.T, h Harness) {
	s := h.Open(t)
	const racers = 8
	results := make(chan error, racers)
	for range racers {
		go func() {
			ev, _ := event.New(event.TurnStarted, "s", "t", nil)
			ev.Sequence = 1
			results <- s.AppendEvent(context.Background(), ev)
		}()
	}
	wins := 0
	for range racers {
		switch err := <-results; {
		case err == nil:
			wins++
		case !errors.Is(err, persist.ErrDuplicate):
			t.Fatalf("AppendEvent: %v", err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d appends of sequence 1 succeeded, want 1", wins)
	}
}
