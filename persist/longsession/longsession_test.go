package longsession

import (
	"context"
	"testing"

	"pincer/persist/memory"
)

// TestWrite: the counts Write reports are what the store holds, the events
// are numbered 1..N without gaps and each payload reads as its type's.
func TestWrite(t *testing.T) {
	ctx := context.Background()
	for n, want := range map[int]int{2: 2, 9: 10, 100: 100, 2000: 2000} {
		store := memory.New()
		res, err := Write(ctx, store, Options{Cwd: "/p", Messages: n})
		if err != nil {
			t.Fatal(err)
		}
		msgs, err := store.ListMessages(ctx, res.Session.ID)
		if err != nil || len(msgs) != want || res.Messages != want {
			t.Fatalf("%d messages: stored %d, reported %d (%v)", n, len(msgs), res.Messages, err)
		}
		evs, err := store.ListEvents(ctx, res.Session.ID, 0, 0)
		if err != nil || len(evs) != res.Events {
			t.Fatalf("%d messages: %d events stored, %d reported (%v)", n, len(evs), res.Events, err)
		}
		for i, ev := range evs {
			if ev.Sequence != uint64(i+1) {
				t.Fatalf("event %d has sequence %d", i, ev.Sequence)
			}
			if _, err := ev.Payload(); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := store.GetSession(ctx, res.Session.ID); err != nil || got.Cwd != "/p" || got.Status != "idle" {
			t.Fatalf("session %+v, %v", got, err)
		}
	}
	if _, err := Write(ctx, memory.New(), Options{Messages: 1}); err == nil {
		t.Fatal("1 message: want an error")
	}
}
