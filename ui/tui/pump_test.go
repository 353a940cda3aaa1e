package tui

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/persist/memory"
)

// TestPumpCoalesces holds the first frame on the event loop (as a slow draw
// would) while 1000 events arrive: they all fold into one more frame, not
// 1000. Draws are counted by the draw wrapper, not by time.
func TestPumpCoalesces(t *testing.T) {
	log := event.NewLog(memory.New())
	var applied atomic.Int64
	firstDraw, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	p := newPump(func(event.Event) { applied.Add(1) }, func() {
		once.Do(func() { close(firstDraw); <-release })
	}, nil)
	p.start()
	p.follow(log, "s", nil, nil)
	<-firstDraw
	ctx := context.Background()
	for i := 0; i < 1000; i++ {
		if _, err := log.Emit(ctx, event.MessageDelta, "s", "t", event.MessageDeltaData{MessageID: "m", Delta: "x", Kind: "text"}); err != nil {
			t.Fatal(err)
		}
	}
	waitUntil(t, "1000 events applied", func() bool { return applied.Load() == 1000 })
	close(release)
	waitUntil(t, "the frame after the burst", func() bool { return p.draws.Load() >= 2 })
	settled := p.draws.Load()
	time.Sleep(100 * time.Millisecond) // idle: nothing may draw
	if got := p.draws.Load(); got != settled || got > 3 {
		t.Errorf("%d draws for 1000 events (%d before the idle pause)", got, settled)
	}
	p.stop()
}

// TestPumpStopEndsGoroutines: follow, switch sessions, stop: nothing is left.
func TestPumpStopEndsGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	log := event.NewLog(memory.New())
	p := newPump(func(event.Event) {}, func() {}, nil)
	p.start()
	resets := 0
	p.follow(log, "a", func() { resets++ }, nil)
	p.follow(log, "b", func() { resets++ }, nil)
	_, _ = log.Emit(context.Background(), event.Notice, "b", "", event.NoticeData{Message: "hi"})
	p.stop()
	p.stop() // idempotent
	p.follow(log, "c", func() { resets++ }, nil)
	if resets != 2 {
		t.Errorf("%d resets, want 2 (none after stop)", resets)
	}
	waitUntil(t, "goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
}

// waitUntil polls cond (5 s at most: a wait, not a timing assertion).
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestPumpInboxRunsMessagesInOrderOnDrain: posted messages wait for drain (the
// frame's sync on the event loop), run there in the order posted, once, and
// each post asks for a frame.
func TestPumpInboxRunsMessagesInOrderOnDrain(t *testing.T) {
	p := newPump(func(event.Event) {}, func() {}, nil)
	var got []int
	for i := range 3 {
		p.post(func() { got = append(got, i) })
	}
	if len(got) != 0 || !p.dirty.Load() {
		t.Fatalf("before drain: ran %v, dirty %v", got, p.dirty.Load())
	}
	p.drain()
	p.drain()
	if len(got) != 3 || got[0] != 0 || got[1] != 1 || got[2] != 2 {
		t.Errorf("ran %v, want [0 1 2] once", got)
	}
}
