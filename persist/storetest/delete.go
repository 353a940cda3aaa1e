package storetest

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"pincer/core/message"
	"pincer/persist"
	"pincer/persist/internal/record"
)

// The DeleteSession part of the contract suite (see contract_test.go).

// fillSession stores one of everything under a session id: record, messages,
// events, a lease, audit entries and session rules.
func fillSession(t *testing.T, s persist.Store, id string, events uint64, at time.Duration) {
	t.Helper()
	ctx := context.Background()
	if err := s.PutSession(ctx, persist.Session{ID: id, Title: "title " + id, Cwd: "/w", Model: "m", Status: "idle",
		CreatedAt: t0, UpdatedAt: t0.Add(at)}); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"one", "two"} {
		m := message.NewText(message.RoleUser, text)
		m.SessionID = id
		if _, err := s.AppendMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	appendEvents(t, s, id, 1, events)
	if ok, _, err := s.AcquireLease(ctx, id, "pid:1/x", time.Hour); err != nil || !ok {
		t.Fatalf("AcquireLease: %v %v", ok, err)
	}
	for _, tool := range []string{"Edit", "Bash"} {
		if err := s.AppendAudit(ctx, persist.AuditEntry{SessionID: id, Tool: tool, Decision: "allow", By: "user",
			Time: t0.Add(at)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutSessionRules(ctx, id, []string{"allow:Bash(ls)"}); err != nil {
		t.Fatal(err)
	}
}

// assertGone checks that nothing of session id can be read any more.
func assertGone(t *testing.T, h Harness, s persist.Store, id string) {
	t.Helper()
	ctx := context.Background()
	if _, err := s.GetSession(ctx, id); !errors.Is(err, persist.ErrNotFound) {
		t.Errorf("GetSession after delete: %v", err)
	}
	list, _ := s.ListSessions(ctx, 0)
	for _, x := range list {
		if x.ID == id {
			t.Errorf("ListSessions still lists %s", id)
		}
	}
	if msgs, err := s.ListMessages(ctx, id); err != nil || len(msgs) != 0 {
		t.Errorf("ListMessages after delete: %d, %v", len(msgs), err)
	}
	if evs, err := s.ListEvents(ctx, id, 0, 0); err != nil || len(evs) != 0 {
		t.Errorf("ListEvents after delete: %d, %v", len(evs), err)
	}
	if last, err := s.LastEventSequence(ctx, id); err != nil || last != 0 {
		t.Errorf("LastEventSequence after delete: %d, %v", last, err)
	}
	if ok, _, err := s.AcquireLease(ctx, id, "pid:2/y", time.Minute); err != nil || !ok {
		t.Errorf("the lease survived the delete: %v %v", ok, err)
	} else {
		_ = s.ReleaseLease(ctx, id, "pid:2/y")
	}
	if a, err := s.ListAudit(ctx, id, 0); err != nil || len(a) != 0 {
		t.Errorf("ListAudit(%s) after delete: %v, %v", id, a, err)
	}
	all, err := s.ListAudit(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range all {
		if e.SessionID == id {
			t.Errorf("the global audit index still lists %+v", e)
		}
	}
	if rules, err := s.GetSessionRules(ctx, id); err != nil || len(rules) != 0 {
		t.Errorf("GetSessionRules after delete: %v, %v", rules, err)
	}
	if h.Keys == nil {
		return
	}
	for _, k := range h.Keys(t, s) { // no key of any kind is left behind
		if record.RecencyID(k) == id || record.AuditKeySession(k) == id || bytes.HasPrefix(k[min(2, len(k)):], []byte(id+"/")) ||
			bytes.Equal(k[min(2, len(k)):], []byte(id)) {
			t.Errorf("key %q is left behind", k)
		}
	}
}

// assertIntact checks that session id (filled by fillSession) is whole.
func assertIntact(t *testing.T, s persist.Store, id string, events uint64) {
	t.Helper()
	ctx := context.Background()
	if got, err := s.GetSession(ctx, id); err != nil || got.Title != "title "+id {
		t.Errorf("GetSession(%s) = %+v, %v", id, got, err)
	}
	if msgs, _ := s.ListMessages(ctx, id); len(msgs) != 2 {
		t.Errorf("%s has %d messages", id, len(msgs))
	}
	if last, _ := s.LastEventSequence(ctx, id); last != events {
		t.Errorf("%s: last event %d, want %d", id, last, events)
	}
	if ok, _, _ := s.AcquireLease(ctx, id, "pid:2/y", time.Minute); ok {
		t.Errorf("%s lost its lease", id)
	}
	if a, _ := s.ListAudit(ctx, id, 0); len(a) != 2 {
		t.Errorf("%s has %d audit entries", id, len(a))
	}
	if rules, _ := s.GetSessionRules(ctx, id); len(rules) != 1 {
		t.Errorf("%s rules = %v", id, rules)
	}
}

func testDeleteSession(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	// "s1" is a prefix of "s10": deleting one must not touch the other.
	fillSession(t, s, "s1", 3000, time.Second) // more keys than one transaction holds
	fillSession(t, s, "s10", 5, 2*time.Second)
	fillSession(t, s, "s2", 5, 3*time.Second)
	if err := s.DeleteSession(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	assertGone(t, h, s, "s1")
	assertIntact(t, s, "s10", 5)
	assertIntact(t, s, "s2", 5)
	if h.Reopen != nil {
		s = h.reopen(t, s)
		assertGone(t, h, s, "s1")
		assertIntact(t, s, "s10", 5)
	}
	if list, _ := s.ListSessions(ctx, 0); len(list) != 2 || list[0].ID != "s2" || list[1].ID != "s10" {
		t.Errorf("ListSessions = %+v", list)
	}
	if all, _ := s.ListAudit(ctx, "", 0); len(all) != 4 {
		t.Errorf("global audit has %d entries, want 4", len(all))
	}
	// Deleting again, or a session never stored: persist.ErrNotFound.
	if err := s.DeleteSession(ctx, "s1"); !errors.Is(err, persist.ErrNotFound) {
		t.Errorf("second delete: %v", err)
	}
	if err := s.DeleteSession(ctx, "a/b"); err == nil {
		t.Error("an invalid id was accepted")
	}
	// The id can be used again: a new session starts empty, at 1.
	m := message.NewText(message.RoleUser, "again")
	m.SessionID = "s1"
	if got, err := s.AppendMessage(ctx, m); err != nil || got.Seq != 1 {
		t.Errorf("AppendMessage after delete = %d, %v", got.Seq, err)
	}
	// Records with no session record are deleted too, and reported.
	appendEvents(t, s, "orphan", 1, 2)
	if err := s.DeleteSession(ctx, "orphan"); !errors.Is(err, persist.ErrNotFound) {
		t.Errorf("delete of an orphan: %v", err)
	}
	if last, _ := s.LastEventSequence(ctx, "orphan"); last != 0 {
		t.Errorf("orphan events survived: %d", last)
	}
}

func testDeleteSessionClosed(t *testing.T, h Harness) {
	s := h.Open(t)
	_ = s.Close()
	if err := s.DeleteSession(context.Background(), "x"); !errors.Is(err, persist.ErrClosed) {
		t.Errorf("DeleteSession after Close: %v", err)
	}
}
