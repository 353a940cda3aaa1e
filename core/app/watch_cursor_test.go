package app

import (
	"testing"

	"pincer/core/event"
	"pincer/persist/memory"
)

// TestWatchCursor: a running turn is watched from just before its
// turn.started; when none runs, from after the last event.
func TestWatchCursor(t *testing.T) {
	ctx := t.Context()
	store := memory.New()
	log := event.NewLog(store)
	emit := func(typ event.Type, turn string) uint64 {
		ev, err := log.Emit(ctx, typ, "s1", turn, nil)
		if err != nil {
			t.Fatal(err)
		}
		return ev.Sequence
	}
	emit(event.TurnStarted, "t1")
	last := emit(event.TurnCompleted, "t1")
	if c, running, err := WatchCursor(ctx, store, "s1"); err != nil || running || c != last {
		t.Fatalf("idle: cursor %d running %t err %v, want %d false", c, running, err, last)
	}
	start := emit(event.TurnStarted, "t2")
	emit(event.Notice, "t2")
	if c, running, err := WatchCursor(ctx, store, "s1"); err != nil || !running || c != start-1 {
		t.Fatalf("running: cursor %d running %t err %v, want %d true", c, running, err, start-1)
	}
}
