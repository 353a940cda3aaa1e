package storetest

import (
	"context"
	"testing"
	"time"
)

// testGetLease: GetLease reads who holds a session without taking it: nothing
// for a free session, the holder while its lease is live, nothing once it is
// released or expired; reading never acquires.
func testGetLease(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	clock := &fakeClock{t: time.Now()}
	h.setClock(t, s, clock.Now)
	get := func(wantFound bool, wantOwner string) {
		t.Helper()
		l, found, err := s.GetLease(ctx, "s")
		if err != nil {
			t.Fatal(err)
		}
		if found != wantFound || l.Owner != wantOwner || (found && l.SessionID != "s") {
			t.Fatalf("GetLease = %+v, %v; want found %v owner %q", l, found, wantFound, wantOwner)
		}
	}
	get(false, "")
	if ok, _, _ := s.AcquireLease(ctx, "s", "b", time.Minute); !ok {
		t.Fatal("GetLease of a free session took its lease")
	}
	if err := s.ReleaseLease(ctx, "s", "b"); err != nil {
		t.Fatal(err)
	}
	if ok, _, err := s.AcquireLease(ctx, "s", "a", time.Minute); !ok || err != nil {
		t.Fatalf("AcquireLease(a) = %v, %v", ok, err)
	}
	get(true, "a")
	clock.Advance(61 * time.Second)
	get(false, "")
	if ok, _, _ := s.AcquireLease(ctx, "s", "a", time.Minute); !ok {
		t.Fatal("re-acquire failed")
	}
	if err := s.ReleaseLease(ctx, "s", "a"); err != nil {
		t.Fatal(err)
	}
	get(false, "")
	if _, _, err := s.GetLease(ctx, ""); err == nil {
		t.Fatal("GetLease without a session succeeded")
	}
}
