package event_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/persist/memory"
)

// TestWait: over a waiting store and a plain one, Wait returns at once when
// an event after the cursor is stored, wakes on the next append otherwise,
// and ends with ctx's error when nothing comes.
func TestWait(t *testing.T) {
	for name, store := range map[string]event.Store{"waiting": memory.New(), "plain": plainStore{memory.New()}} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			log := event.NewLog(store)
			if _, err := log.Emit(ctx, event.MessageDelta, "s", "t", nil); err != nil {
				t.Fatal(err)
			}
			if err := log.Wait(ctx, "s", 0); err != nil {
				t.Fatalf("Wait after 0 with one event: %v", err)
			}
			short, stop := context.WithTimeout(ctx, 50*time.Millisecond)
			err := log.Wait(short, "s", 1)
			stop()
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("Wait with nothing new = %v, want the deadline", err)
			}
			woke := make(chan error, 1)
			go func() { woke <- log.Wait(ctx, "s", 1) }()
			time.Sleep(20 * time.Millisecond)
			if _, err := log.Emit(ctx, event.MessageDelta, "s", "t", nil); err != nil {
				t.Fatal(err)
			}
			if err := <-woke; err != nil {
				t.Fatalf("Wait woken by an append: %v", err)
			}
		})
	}
}
