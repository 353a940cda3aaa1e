package badger

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"pincer/core/message"
	"pincer/persist"
)

// suspendMeanwhile suspends s every period until the test ends.
func suspendMeanwhile(t testing.TB, s *Store, period time.Duration) {
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(period):
			}
			if err := s.Suspend(); err != nil && !errors.Is(err, persist.ErrClosed) {
				t.Errorf("suspend: %v", err)
				return
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done })
}

// TestSuspendKeepsTheDirectory checks that a suspended store still holds its
// directory (another open is refused, naming this process), reopens on the
// next operation with every write there, and lets go on Close.
func TestSuspendKeepsTheDirectory(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.PutSession(ctx, persist.Session{ID: "s1", Title: "one"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Suspend(); err != nil {
		t.Fatal(err)
	}
	if !s.Suspended() {
		t.Fatal("not suspended")
	}
	var inUse *InUseError
	if _, err := Open(dir); !errors.As(err, &inUse) || inUse.PID != os.Getpid() {
		t.Fatalf("open of a suspended store's directory: %v, want an *InUseError naming pid %d", err, os.Getpid())
	}
	got, err := s.GetSession(ctx, "s1")
	if err != nil || got.Title != "one" {
		t.Fatalf("after suspend: %+v, %v", got, err)
	}
	if s.Suspended() {
		t.Fatal("still suspended after an operation")
	}
	m := message.NewText(message.RoleUser, "hi")
	m.SessionID = "s1"
	if _, err := s.AppendMessage(ctx, m); err != nil {
		t.Fatal(err)
	}
	if err := s.Suspend(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil { // closed while suspended
		t.Fatal(err)
	}
	if _, err := s.GetSession(ctx, "s1"); !errors.Is(err, persist.ErrClosed) {
		t.Fatalf("after close: %v, want ErrClosed", err)
	}
	if err := s.Suspend(); err != nil {
		t.Fatalf("suspend after close: %v", err)
	}
	s2 := openDisk(t, dir)
	msgs, err := s2.ListMessages(ctx, "s1")
	if err != nil || len(msgs) != 1 {
		t.Fatalf("reopened: %d messages, %v", len(msgs), err)
	}
}

// TestSuspendUnderLoad appends from several goroutines while the store is
// suspended every 5 ms: no append fails and none is lost.
func TestSuspendUnderLoad(t *testing.T) {
	ctx := context.Background()
	s := openDisk(t, t.TempDir())
	suspendMeanwhile(t, s, 5*time.Millisecond)
	const writers, each = 4, 25
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("s%d", w)
			for k := 1; k <= each; k++ {
				m := message.NewText(message.RoleUser, "x")
				m.SessionID = id
				if _, err := s.AppendMessage(ctx, m); err != nil {
					t.Errorf("%s #%d: %v", id, k, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for w := range writers {
		msgs, err := s.ListMessages(ctx, fmt.Sprintf("s%d", w))
		if err != nil || len(msgs) != each {
			t.Errorf("s%d: %d messages, %v", w, len(msgs), err)
		}
	}
}
