package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"pincer/core/event"
)

// The store-numbered events and WaitEvents part of the contract suite.

func testAppendEventNextAndWait(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	next := func(typ event.Type) event.Event {
		t.Helper()
		ev, _ := event.New(typ, "s", "t", event.TurnStartedData{Input: "x"})
		ev.Timestamp = t0
		got, err := s.AppendEventNext(ctx, ev)
		if err != nil {
			t.Fatal(err)
		}
		if got.Type != typ || !got.Timestamp.Equal(t0) || got.SessionID != "s" {
			t.Fatalf("AppendEventNext = %+v", got)
		}
		return got
	}
	if ev := next(event.TurnStarted); ev.Sequence != 1 {
		t.Fatalf("first sequence %d", ev.Sequence)
	}
	appendEvents(t, s, "s", 2, 3) // explicit sequences: numbering continues after them
	if ev := next(event.TurnCompleted); ev.Sequence != 4 {
		t.Fatalf("sequence after explicit appends %d", ev.Sequence)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				ev, _ := event.New(event.MessageDelta, "s", "t", nil)
				if _, err := s.AppendEventNext(ctx, ev); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if h.Reopen != nil {
		s = h.reopen(t, s)
	}
	if ev := next(event.Notice); ev.Sequence != 45 {
		t.Fatalf("sequence after concurrent appends (and a reopen) %d, want 45", ev.Sequence)
	}
	evs, err := s.ListEvents(ctx, "s", 0, 0)
	if err != nil || fmt.Sprint(seqs(evs)) != fmt.Sprint(seqRange(1, 45)) {
		t.Fatalf("ListEvents = %v, %v", seqs(evs), err)
	}
	if err := s.WaitEvents(ctx, "s", 44); err != nil {
		t.Fatalf("WaitEvents with events after the cursor: %v", err)
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if err := s.WaitEvents(short, "s", 45); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitEvents with nothing new: %v", err)
	}
	woke := make(chan error, 1)
	go func() { woke <- s.WaitEvents(ctx, "s", 45) }()
	time.Sleep(20 * time.Millisecond)
	appendEvents(t, s, "s", 46, 46) // explicit appends wake waiters too
	select {
	case err := <-woke:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("WaitEvents did not wake on an append")
	}
	if _, err := s.AppendEventNext(ctx, event.Event{Type: event.Notice}); err == nil {
		t.Fatal("AppendEventNext without a session succeeded")
	}
}

func seqRange(from, to uint64) []uint64 {
	var out []uint64
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}
