package event_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/persist/memory"
)

func TestAppendNumbersFromOneWithoutGaps(t *testing.T) {
	store := memory.New()
	log := event.NewLog(store)
	ctx := context.Background()
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if _, err := log.Emit(ctx, event.MessageDelta, "s1", "t1", event.MessageDeltaData{Delta: "x", Kind: "text"}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	evs, err := log.Read(ctx, "s1", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 400 {
		t.Fatalf("%d events, want 400", len(evs))
	}
	for i, ev := range evs {
		if ev.Sequence != uint64(i+1) || ev.Timestamp.Location() != time.UTC {
			t.Fatalf("event %d: sequence %d, time %v", i, ev.Sequence, ev.Timestamp)
		}
	}
	// A new log over the same store continues the numbering.
	ev, err := event.NewLog(store).Emit(ctx, event.TurnCompleted, "s1", "t1", event.TurnCompletedData{StopReason: "stop"})
	if err != nil || ev.Sequence != 401 {
		t.Fatalf("sequence after reopen = %d, %v", ev.Sequence, err)
	}
	// Sessions are numbered apart.
	if ev, _ := log.Emit(ctx, event.SessionCreated, "s2", "", nil); ev.Sequence != 1 {
		t.Errorf("first event of another session has sequence %d", ev.Sequence)
	}
}

func TestFlatJSONRoundTrip(t *testing.T) {
	ev, err := event.New(event.ToolCompleted, "s", "t", event.ToolCompletedData{ToolCallID: "c", Name: "Read", Output: "ok", DurationMs: 5})
	if err != nil {
		t.Fatal(err)
	}
	ev.Sequence = 7
	ev.Timestamp = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	var flat map[string]any
	if err := json.Unmarshal(b, &flat); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{"type": "tool.completed", "sequence": 7.0, "sessionId": "s", "turnId": "t",
		"timestamp": "2026-11-29T12:00:00Z", "toolCallId": "c", "name": "Read", "output": "ok", "durationMs": 5.0, "isError": false} {
		if flat[k] != want {
			t.Errorf("%s = %v, want %v (in %s)", k, flat[k], want, b)
		}
	}
	var back event.Event
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	// Marshalling what was read gives the same object: no field repeated.
	again, _ := json.Marshal(back)
	if string(again) != string(b) {
		t.Errorf("re-marshalled event differs:\n%s\n%s", again, b)
	}
	d := event.ToolCompletedData{}
	if err := back.Decode(&d); err != nil || back.Sequence != 7 || back.Type != event.ToolCompleted || d.Output != "ok" || !back.Timestamp.Equal(ev.Timestamp) {
		t.Errorf("round trip: %+v %+v %v", back, d, err)
	}
	// An event without payload is just the header.
	empty, _ := event.New(event.TurnStarted, "s", "", nil)
	b, _ = json.Marshal(empty)
	if !strings.HasPrefix(string(b), `{"type":"turn.started"`) || strings.Contains(string(b), ",,") {
		t.Errorf("empty payload: %s", b)
	}
}

func TestFollowSeesPastAndLiveEvents(t *testing.T) {
	log := event.NewLog(memory.New())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for i := 0; i < 3; i++ {
		if _, err := log.Emit(ctx, event.MessageDelta, "s", "t", nil); err != nil {
			t.Fatal(err)
		}
	}
	got := make(chan uint64, 100)
	done := make(chan error, 1)
	go func() {
		done <- log.Follow(ctx, "s", 1, func(ev event.Event) error {
			got <- ev.Sequence
			if ev.Type == event.TurnCompleted {
				return event.ErrStop
			}
			return nil
		})
	}()
	for i := 0; i < 5; i++ {
		_, _ = log.Emit(ctx, event.MessageDelta, "s", "t", nil)
	}
	_, _ = log.Emit(ctx, event.TurnCompleted, "s", "t", nil)
	if err := <-done; err != nil {
		t.Fatalf("Follow: %v", err)
	}
	close(got)
	want := uint64(2)
	for seq := range got {
		if seq != want {
			t.Fatalf("followed sequence %d, want %d", seq, want)
		}
		want++
	}
	if want != 10 {
		t.Errorf("followed up to %d, want 9", want-1)
	}
}

// plainStore hides the sequencing and waiting methods of a store: the log then
// numbers events itself, as it does over stores that lack them.
type plainStore struct{ s *memory.Store }

func (p plainStore) AppendEvent(ctx context.Context, ev event.Event) error {
	return p.s.AppendEvent(ctx, ev)
}
func (p plainStore) ListEvents(ctx context.Context, id string, after uint64, limit int) ([]event.Event, error) {
	return p.s.ListEvents(ctx, id, after, limit)
}
func (p plainStore) LastEventSequence(ctx context.Context, id string) (uint64, error) {
	return p.s.LastEventSequence(ctx, id)
}

func TestPlainStoreKeepsLocalNumberingAndWaking(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	log := event.NewLog(plainStore{memory.New()})
	done := make(chan []uint64, 1)
	go func() {
		var seen []uint64
		_ = log.Follow(ctx, "s", 0, func(ev event.Event) error {
			seen = append(seen, ev.Sequence)
			if ev.Type == event.TurnCompleted {
				return event.ErrStop
			}
			return nil
		})
		done <- seen
	}()
	for range 3 {
		if _, err := log.Emit(ctx, event.MessageDelta, "s", "t", nil); err != nil {
			t.Fatal(err)
		}
	}
	if ev, err := log.Emit(ctx, event.TurnCompleted, "s", "t", nil); err != nil || ev.Sequence != 4 {
		t.Fatalf("Emit = %d, %v", ev.Sequence, err)
	}
	if seen := <-done; len(seen) != 4 || seen[3] != 4 {
		t.Fatalf("followed %v", seen)
	}
}

// TestTwoLogsOneStore: two logs over one store (as two processes over the store
// daemon) append to one session at once without a gap or a duplicate, and a
// Follow on one sees the other's appends live.
func TestTwoLogsOneStore(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	store := memory.New()
	a, b := event.NewLog(store), event.NewLog(store)
	got := make(chan int, 1)
	go func() {
		n := 0
		_ = b.Follow(ctx, "s", 0, func(ev event.Event) error {
			n++
			if ev.Type == event.TurnCompleted {
				return event.ErrStop
			}
			return nil
		})
		got <- n
	}()
	var wg sync.WaitGroup
	for _, log := range []*event.Log{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if _, err := log.Emit(ctx, event.MessageDelta, "s", "t", nil); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if _, err := a.Emit(ctx, event.TurnCompleted, "s", "t", nil); err != nil {
		t.Fatal(err)
	}
	if n := <-got; n != 101 {
		t.Fatalf("the other log's Follow saw %d events, want 101", n)
	}
	evs, _ := a.Read(ctx, "s", 0, 0)
	for i, ev := range evs {
		if ev.Sequence != uint64(i+1) {
			t.Fatalf("event %d has sequence %d", i, ev.Sequence)
		}
	}
}
