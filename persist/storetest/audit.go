package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"pincer/persist"
	"pincer/persist/internal/record"
)

// The audit-trail and session-rules part of the contract suite (see contract_test.go).

func auditTools(es []persist.AuditEntry) string {
	var out []string
	for _, e := range es {
		out = append(out, e.SessionID+":"+e.Tool)
	}
	return fmt.Sprint(out)
}

func testAuditTrail(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	clock := &fakeClock{t: t0}
	h.setClock(t, s, clock.Now)
	add := func(sid, tool string, at time.Duration) {
		t.Helper()
		e := persist.AuditEntry{SessionID: sid, TurnID: "t1", ToolCallID: "c-" + tool, Tool: tool,
			Summary: tool + " x", Decision: "allow", Rule: "Bash(ls)", By: "rule Bash(ls) from session"}
		if at >= 0 {
			e.Time = t0.Add(at)
		}
		if err := s.AppendAudit(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	list := func(sid string, limit int, want string) []persist.AuditEntry {
		t.Helper()
		got, err := s.ListAudit(ctx, sid, limit)
		if err != nil {
			t.Fatal(err)
		}
		if auditTools(got) != want {
			t.Fatalf("ListAudit(%q, %d) = %s, want %s", sid, limit, auditTools(got), want)
		}
		return got
	}
	list("", 0, "[]")
	list("s1", 0, "[]")
	add("s1", "A", 1*time.Second)
	add("s2", "B", 2*time.Second)
	add("s1", "C", 3*time.Second)
	add("s1", "D", 3*time.Second) // same time: the later append lists first
	add("s2", "E", -1)            // zero Time: stamped with the store's clock (t0)
	if h.Reopen != nil {
		s = h.reopen(t, s)
	}
	list("s1", 0, "[s1:D s1:C s1:A]")
	list("s1", 2, "[s1:D s1:C]")
	got := list("s2", 0, "[s2:E s2:B]")
	if !got[0].Time.Equal(t0) || got[0].Time.Location() != time.UTC {
		t.Fatalf("stamped Time = %v, want %v UTC", got[0].Time, t0)
	}
	all := list("", 0, "[s1:D s1:C s2:B s1:A s2:E]")
	list("", 3, "[s1:D s1:C s2:B]")
	e := all[0]
	if e.TurnID != "t1" || e.ToolCallID != "c-D" || e.Summary != "D x" || e.Decision != "allow" ||
		e.Rule != "Bash(ls)" || e.By != "rule Bash(ls) from session" {
		t.Fatalf("entry = %+v", e)
	}
	if err := s.AppendAudit(ctx, persist.AuditEntry{SessionID: "a/b"}); err == nil {
		t.Fatal("AppendAudit with a '/' in the session id succeeded")
	}
	list("a/b", 0, "[]")
}

func testConcurrentAppendAudit(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	const workers, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				err := s.AppendAudit(ctx, persist.AuditEntry{SessionID: "s", Tool: fmt.Sprintf("w%d-%d", w, i)})
				if err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got, err := s.ListAudit(ctx, "s", 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range got {
		seen[e.Tool] = true
	}
	if len(got) != workers*each || len(seen) != workers*each {
		t.Fatalf("%d entries (%d distinct), want %d", len(got), len(seen), workers*each)
	}
	if all, _ := s.ListAudit(ctx, "", 0); len(all) != workers*each {
		t.Fatalf("global index has %d entries, want %d", len(all), workers*each)
	}
}

func testSessionRules(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	get := func(sid, want string) {
		t.Helper()
		got, err := s.GetSessionRules(ctx, sid)
		if err != nil || got == nil || fmt.Sprint(got) != want {
			t.Fatalf("GetSessionRules(%s) = %#v, %v; want %s", sid, got, err, want)
		}
	}
	get("s", "[]")
	rules := []string{"allow:Bash(npm test)", "deny:Read(./secrets/**)"}
	if err := s.PutSessionRules(ctx, "s", rules); err != nil {
		t.Fatal(err)
	}
	rules[0] = "changed" // the store keeps its own copy
	if err := s.PutSessionRules(ctx, "other", []string{"ask:Bash"}); err != nil {
		t.Fatal(err)
	}
	if h.Reopen != nil {
		s = h.reopen(t, s)
	}
	get("s", "[allow:Bash(npm test) deny:Read(./secrets/**)]")
	get("other", "[ask:Bash]")
	if err := s.PutSessionRules(ctx, "s", nil); err != nil { // replaced as a whole
		t.Fatal(err)
	}
	get("s", "[]")
	if err := s.PutSessionRules(ctx, "", []string{"allow:Bash"}); err == nil {
		t.Fatal("PutSessionRules with an empty session id succeeded")
	}
}

func testAuditCorruptEntrySkipped(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	for _, tool := range []string{"A", "B", "C"} {
		if err := s.AppendAudit(ctx, persist.AuditEntry{SessionID: "s", Tool: tool}); err != nil {
			t.Fatal(err)
		}
	}
	corruptAudit(t, h, s, "s", 2)
	for _, sid := range []string{"s", ""} {
		got, err := s.ListAudit(ctx, sid, 0)
		var ce *persist.CorruptError
		if !errors.Is(err, persist.ErrCorrupt) || !errors.As(err, &ce) || ce.Count != 1 || ce.Kind != "audit" {
			t.Fatalf("ListAudit(%q) error = %v, want one corrupt audit record", sid, err)
		}
		if auditTools(got) != "[s:C s:A]" {
			t.Fatalf("ListAudit(%q) = %s", sid, auditTools(got))
		}
	}
}

// corruptAudit overwrites entry seq of a session, in both of its places, with garbage.
func corruptAudit(t *testing.T, h Harness, s persist.Store, sid string, seq uint64) {
	t.Helper()
	e, err := s.ListAudit(context.Background(), sid, 0)
	if err != nil {
		t.Fatal(err)
	}
	at := e[len(e)-int(seq)].Time
	corrupt(t, h, s, record.SeqKey(record.KindAudit, sid, seq))
	corrupt(t, h, s, record.AuditTimeKey(sid, seq, at))
}
