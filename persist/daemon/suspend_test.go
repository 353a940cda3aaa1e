package daemon

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"pincer/persist"
	"pincer/persist/remote"
)

// TestDaemonSuspendsIdleStore checks that a daemon with no client suspends
// its store after SuspendAfter, and that the next client's requests reopen
// it with everything written before.
func TestDaemonSuspendsIdleStore(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	socket := filepath.Join(socketDir(t), "d.sock")
	suspended := make(chan struct{}, 16)
	cfg := Config{StoreDir: t.TempDir(), Files: Files{Socket: socket, Lock: LockFor(socket)}, Idle: time.Hour,
		SuspendAfter: 50 * time.Millisecond, Version: "test", suspended: func() { suspended <- struct{}{} }}
	done := make(chan error, 1)
	go func() { done <- Run(ctx, cfg) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	open := func() *remote.Client {
		deadline := time.Now().Add(10 * time.Second)
		for {
			c, err := remote.Open(ctx, remote.Options{Socket: socket})
			if err == nil {
				return c
			}
			if time.Now().After(deadline) {
				t.Fatalf("open: %v", err)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitSuspended := func(what string) {
		select {
		case <-suspended:
		case <-time.After(10 * time.Second):
			t.Fatalf("the store was not suspended %s", what)
		}
	}
	c := open()
	if err := c.PutSession(ctx, persist.Session{ID: "kept", Title: "before"}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // attached: never suspended
	select {
	case <-suspended:
		t.Fatal("suspended while a client was attached")
	default:
	}
	c.Close()
	waitSuspended("after the last client left")
	c2 := open()
	defer c2.Close()
	if s, err := c2.GetSession(ctx, "kept"); err != nil || s.Title != "before" {
		t.Fatalf("after the suspension: %+v, %v", s, err)
	}
	if err := c2.PutSession(ctx, persist.Session{ID: "kept", Title: "after"}); err != nil {
		t.Fatal(err)
	}
	c2.Close()
	waitSuspended("a second time")
	c3 := open()
	defer c3.Close()
	if s, err := c3.GetSession(ctx, "kept"); err != nil || s.Title != "after" {
		t.Fatalf("after the second suspension: %+v, %v", s, err)
	}
}
