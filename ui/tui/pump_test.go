package tui

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/persist/memory"
)

// TestPumpCoalesces holds the first frame on the event loop (as a slow draw
// would) while 1000 events arrive: they wait in the inbox and all fold into
// one more frame, not 1000. Draws are counted by the draw wrapper, not by
// time.
func TestPumpCoalesces(t *testing.T) {
	log := event.NewLog(memory.New())
	var applied atomic.Int64
	firstDraw, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	var p *pump
	p = newPump(func(int, event.Event) { applied.Add(1) }, func() {
		once.Do(func() { close(firstDraw); <-release })
		p.drain() // as the frame's sync does on the event loop
	}, nil)
	p.start()
	p.follow(0, log, "s", nil, nil)
	<-firstDraw
	ctx := context.Background()
	for i := 0; i < 1000; i++ {
		if _, err := log.Emit(ctx, event.MessageDelta, "s", "t", event.MessageDeltaData{MessageID: "m", Delta: "x", Kind: "text"}); err != nil {
			t.Fatal(err)
		}
	}
	waitUntil(t, "1000 events posted", func() bool { return p.pending() == 1001 }) // and the follow's reset
	if n := applied.Load(); n != 0 {
		t.Errorf("%d events applied off the event loop (before a frame drained them)", n)
	}
	close(release)
	waitUntil(t, "the frame after the burst", func() bool { return p.draws.Load() >= 2 && applied.Load() == 1000 })
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
	p := newPump(func(int, event.Event) {}, func() {}, nil)
	p.start()
	resets := 0
	p.follow(0, log, "a", func() { resets++ }, nil)
	p.follow(0, log, "b", func() { resets++ }, nil)
	_, _ = log.Emit(context.Background(), event.Notice, "b", "", event.NoticeData{Message: "hi"})
	p.stop()
	p.stop() // idempotent
	p.follow(0, log, "c", func() { resets++ }, nil)
	p.drain() // the resets run on the event loop
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
	p := newPump(func(int, event.Event) {}, func() {}, nil)
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

// pending is how many messages and events wait in the inbox.
func (p *pump) pending() int {
	p.inboxMu.Lock()
	defer p.inboxMu.Unlock()
	return len(p.inbox)
}

// TestPumpFollowerPostsToTheInbox: the follower's events wait in the inbox
// with the messages of background work and are applied only by drain, in the
// order posted, each session's after the reset of its follow.
func TestPumpFollowerPostsToTheInbox(t *testing.T) {
	log := event.NewLog(memory.New())
	ctx := context.Background()
	for _, s := range []string{"a", "b"} {
		for i := range 2 {
			if _, err := log.Emit(ctx, event.Notice, s, "", event.NoticeData{Message: fmt.Sprint(s, i)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	var got []string // written by drain only
	p := newPump(func(_ int, ev event.Event) { got = append(got, ev.SessionID+":"+fmt.Sprint(ev.Sequence)) }, func() {}, nil)
	defer p.stop()
	p.post(func() { got = append(got, "before") })
	p.follow(0, log, "a", func() { got = append(got, "reset a") }, nil)
	waitUntil(t, "a's events posted", func() bool { return p.pending() == 4 })
	if len(got) != 0 {
		t.Fatalf("ran before drain: %v", got)
	}
	p.follow(0, log, "b", func() { got = append(got, "reset b") }, nil)
	waitUntil(t, "b's events posted", func() bool { return p.pending() == 7 })
	p.post(func() { got = append(got, "after") })
	p.drain()
	want := "[before reset a a:1 a:2 reset b b:1 b:2 after]"
	if fmt.Sprint(got) != want {
		t.Errorf("drained %v, want %s", got, want)
	}

}
