package app

import (
	"testing"
	"time"

	"pincer/persist"
	"pincer/persist/memory"
)

// TestSetSessionModelHoldsTheLease: a session another process holds is
// refused by name and holder and keeps its model; a free one gets the new
// model, and its lease is free again afterwards.
func TestSetSessionModelHoldsTheLease(t *testing.T) {
	ctx := t.Context()
	store := memory.New()
	if err := store.PutSession(ctx, persist.Session{ID: "s1", Model: "a/old"}); err != nil {
		t.Fatal(err)
	}
	if ok, _, err := store.AcquireLease(ctx, "s1", "pid:1/turn", time.Minute); !ok || err != nil {
		t.Fatal(ok, err)
	}
	err := SetSessionModel(ctx, store, "s1", "a/new")
	if err == nil || err.Error() != "session s1 is running a turn (pid:1/turn): switch after it ends" {
		t.Fatalf("held: err = %v", err)
	}
	if s, _ := store.GetSession(ctx, "s1"); s.Model != "a/old" {
		t.Fatalf("held: model = %q, want it kept", s.Model)
	}
	if err := store.ReleaseLease(ctx, "s1", "pid:1/turn"); err != nil {
		t.Fatal(err)
	}
	if err := SetSessionModel(ctx, store, "s1", "a/new"); err != nil {
		t.Fatal(err)
	}
	if s, _ := store.GetSession(ctx, "s1"); s.Model != "a/new" {
		t.Fatalf("model = %q, want a/new", s.Model)
	}
	if l, found, _ := store.GetLease(ctx, "s1"); found {
		t.Fatalf("lease %q still held after the switch", l.Owner)
	}
}
