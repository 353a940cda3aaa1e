package storetest

import (
	"context"
	"testing"
	"time"

	"pincer/persist"
)

// The lease part of the contract suite (see contract_test.go).

func testLeaseLifecycle(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	clock := &fakeClock{t: time.Now()}
	h.setClock(t, s, clock.Now)
	const ttl = time.Minute
	acquire := func(owner string, want bool, holder string) persist.Lease {
		t.Helper()
		ok, l, err := s.AcquireLease(ctx, "s", owner, ttl)
		if err != nil {
			t.Fatal(err)
		}
		if ok != want || l.Owner != holder || l.SessionID != "s" {
			t.Fatalf("AcquireLease(%s) = %v, %+v; want %v held by %s", owner, ok, l, want, holder)
		}
		return l
	}
	renew := func(owner string, want bool) {
		t.Helper()
		ok, err := s.RenewLease(ctx, "s", owner, ttl)
		if err != nil || ok != want {
			t.Fatalf("RenewLease(%s) = %v, %v; want %v", owner, ok, err, want)
		}
	}
	release := func(owner string) {
		t.Helper()
		if err := s.ReleaseLease(ctx, "s", owner); err != nil {
			t.Fatal(err)
		}
	}

	l := acquire("a", true, "a")
	if !l.ExpiresAt.Equal(clock.Now().Add(ttl)) {
		t.Fatalf("ExpiresAt = %v, want %v", l.ExpiresAt, clock.Now().Add(ttl))
	}
	held := acquire("b", false, "a") // held by another owner: reported
	if !held.ExpiresAt.Equal(l.ExpiresAt) {
		t.Fatalf("holder's ExpiresAt = %v, want %v", held.ExpiresAt, l.ExpiresAt)
	}
	acquire("a", true, "a") // own lease: renewed
	renew("b", false)
	clock.Advance(50 * time.Second)
	renew("a", true) // now runs until +110s
	clock.Advance(50 * time.Second)
	acquire("b", false, "a") // still live thanks to the renewal
	release("b")             // not b's: nothing happens
	acquire("b", false, "a")
	clock.Advance(11 * time.Second) // expired
	renew("a", false)
	acquire("b", true, "b")
	acquire("a", false, "b")
	release("b")
	acquire("a", true, "a")
	if h.Reopen != nil {
		s = h.reopen(t, s)
		h.setClock(t, s, clock.Now)
		acquire("b", false, "a")
	}
	if _, _, err := s.AcquireLease(ctx, "s", "a", 0); err == nil {
		t.Fatal("AcquireLease with ttl 0 succeeded")
	}
	if _, _, err := s.AcquireLease(ctx, "s", "", ttl); err == nil {
		t.Fatal("AcquireLease without owner succeeded")
	}
}

// TestLeaseExpiresInRealTime uses the real clock with a TTL below Badger's
// one-second granularity: the value's ExpiresAt decides.
func testLeaseExpiresInRealTime(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	const ttl = 150 * time.Millisecond
	if ok, _, err := s.AcquireLease(ctx, "s", "a", ttl); !ok || err != nil {
		t.Fatalf("AcquireLease(a) = %v, %v", ok, err)
	}
	if ok, l, err := s.AcquireLease(ctx, "s", "b", ttl); ok || err != nil || l.Owner != "a" {
		t.Fatalf("AcquireLease(b) = %v, %+v, %v; want held by a", ok, l, err)
	}
	time.Sleep(ttl + 50*time.Millisecond)
	if ok, l, err := s.AcquireLease(ctx, "s", "b", ttl); !ok || err != nil || l.Owner != "b" {
		t.Fatalf("AcquireLease(b) after expiry = %v, %+v, %v", ok, l, err)
	}
}

func testConcurrentAcquireLease(t *testing.T, h Harness) {
	s := h.Open(t)
	const racers = 8
	type result struct {
		ok  bool
		err error
	}
	results := make(chan result, racers)
	for i := range racers {
		go func() {
			ok, _, err := s.AcquireLease(context.Background(), "s", string(rune('a'+i)), time.Minute)
			results <- result{ok, err}
		}()
	}
	wins := 0
	for range racers {
		r := <-results
		if r.err != nil {
			t.Fatal(r.err)
		}
		if r.ok {
			wins++
		}
	}
	if wins != 1 {
		t.Fatalf("%d owners acquired the lease, want 1", wins)
	}
}
