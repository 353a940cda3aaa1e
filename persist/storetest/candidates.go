package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"pincer/persist"
)

// candidate is a valid new memory candidate of session s.
func candidate(id, session string) persist.Candidate {
	return persist.Candidate{ID: id, Kind: persist.CandidateMemory, Op: persist.CandidateAdd, Type: "feedback",
		Name: "tabs", Description: "we indent with tabs", Content: "---\nname: tabs\n---\nTabs.\n",
		Target: "/data/memory/p/tabs.md", Scope: persist.CandidateProjectScope, Project: "/work/p",
		SessionID: session, Turn: 1, Origin: persist.OriginRequest}
}

// testCandidates: a candidate is created pending once per id, read back as
// stored, listed oldest first by filter, decided exactly once (a second
// decision, a decision from another session, an unknown status and an edit of
// a rejection are refused and change nothing), an accepted edit keeps the
// proposed text, and only an accepted candidate can be marked applied.
func testCandidates(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	c1, err := s.PutCandidate(ctx, candidate("c1", "s1"))
	if err != nil || c1.Status != persist.CandidatePending || c1.CreatedAt.IsZero() {
		t.Fatalf("PutCandidate = %+v, %v; want pending with CreatedAt", c1, err)
	}
	if _, err := s.PutCandidate(ctx, candidate("c1", "s1")); !errors.Is(err, persist.ErrDuplicate) {
		t.Fatalf("second PutCandidate c1: %v, want ErrDuplicate", err)
	}
	for _, bad := range []persist.Candidate{
		candidate("../x", "s1"), candidate("", "s1"),
		func() persist.Candidate { c := candidate("c9", "s1"); c.Status = persist.CandidateAccepted; return c }(),
		func() persist.Candidate { c := candidate("c9", "s1"); c.Kind = "secret"; return c }(),
		func() persist.Candidate { c := candidate("c9", "s1"); c.Target = ""; return c }(),
		func() persist.Candidate { c := candidate("c9", "s1"); c.DecidedBy = "model"; return c }(),
	} {
		if _, err := s.PutCandidate(ctx, bad); err == nil {
			t.Errorf("PutCandidate accepted %+v", bad)
		}
	}
	c2 := candidate("c2", "s2")
	c2.CreatedAt = c1.CreatedAt.Add(time.Second)
	c2.Kind = persist.CandidateSkill
	if _, err := s.PutCandidate(ctx, c2); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetCandidate(ctx, "c1")
	if err != nil || got.Content != c1.Content || got.Target != c1.Target || !got.CreatedAt.Equal(c1.CreatedAt) {
		t.Fatalf("GetCandidate = %+v, %v", got, err)
	}
	if _, err := s.GetCandidate(ctx, "nope"); !errors.Is(err, persist.ErrNotFound) {
		t.Fatalf("GetCandidate nope: %v, want ErrNotFound", err)
	}
	checkCandidateList(t, s, persist.CandidateFilter{}, "c1", "c2")
	checkCandidateList(t, s, persist.CandidateFilter{Kind: persist.CandidateSkill}, "c2")
	checkCandidateList(t, s, persist.CandidateFilter{SessionID: "s1"}, "c1")

	if _, err := s.MarkCandidateApplied(ctx, "c1", time.Time{}); !errors.Is(err, persist.ErrNotAccepted) {
		t.Fatalf("MarkCandidateApplied of a pending one: %v, want ErrNotAccepted", err)
	}
	edited := "---\nname: tabs\n---\nTabs, width 4.\n"
	refused := []struct {
		d    persist.CandidateDecision
		want error
	}{
		{persist.CandidateDecision{Status: persist.CandidateAccepted, By: "user", SessionID: "s2"}, persist.ErrWrongSession},
		{persist.CandidateDecision{Status: "maybe", By: "user"}, nil},
		{persist.CandidateDecision{Status: persist.CandidateRejected, By: "user", Content: &edited}, nil},
		{persist.CandidateDecision{Status: persist.CandidateAccepted}, nil},
	}
	for _, r := range refused {
		if _, err := s.DecideCandidate(ctx, "c1", r.d); err == nil || (r.want != nil && !errors.Is(err, r.want)) {
			t.Errorf("DecideCandidate %+v: %v, want a refusal (%v)", r.d, err, r.want)
		}
	}
	if got, _ := s.GetCandidate(ctx, "c1"); got.Status != persist.CandidatePending {
		t.Fatalf("a refused decision changed c1: %+v", got)
	}
	dec, err := s.DecideCandidate(ctx, "c1", persist.CandidateDecision{Status: persist.CandidateAccepted,
		Content: &edited, By: "user", SessionID: "s1"})
	if err != nil || dec.Status != persist.CandidateAccepted || !dec.Edited || dec.Content != edited ||
		dec.Proposed != c1.Content || dec.DecidedIn != "s1" || dec.DecidedAt.IsZero() {
		t.Fatalf("DecideCandidate accept edited = %+v, %v", dec, err)
	}
	if _, err := s.DecideCandidate(ctx, "c1", persist.CandidateDecision{Status: persist.CandidateRejected, By: "cli"}); !errors.Is(err, persist.ErrDecided) {
		t.Fatalf("second decision: %v, want ErrDecided", err)
	}
	checkCandidateList(t, s, persist.CandidateFilter{Status: persist.CandidatePending}, "c2")
	at := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	if ap, err := s.MarkCandidateApplied(ctx, "c1", at); err != nil || !ap.AppliedAt.Equal(at) {
		t.Fatalf("MarkCandidateApplied = %+v, %v", ap, err)
	}
	if ap, err := s.MarkCandidateApplied(ctx, "c1", at.Add(time.Hour)); err != nil || !ap.AppliedAt.Equal(at) {
		t.Fatalf("second MarkCandidateApplied = %+v, %v; want the first time kept", ap, err)
	}
	rej, err := s.DecideCandidate(ctx, "c2", persist.CandidateDecision{Status: persist.CandidateRejected, By: "cli", Reason: "no"})
	if err != nil || rej.Status != persist.CandidateRejected || rej.Reason != "no" || rej.DecidedIn != "" {
		t.Fatalf("reject = %+v, %v", rej, err)
	}
	if _, err := s.MarkCandidateApplied(ctx, "c2", time.Time{}); !errors.Is(err, persist.ErrNotAccepted) {
		t.Fatalf("MarkCandidateApplied of a rejected one: %v", err)
	}
	if err := s.DeleteSession(ctx, "s1"); err != nil && !errors.Is(err, persist.ErrNotFound) {
		t.Fatal(err)
	}
	if h.Reopen != nil {
		s = h.Reopen(t, s)
	}
	if got, err := s.GetCandidate(ctx, "c1"); err != nil || !got.Edited || !got.AppliedAt.Equal(at) {
		t.Fatalf("after DeleteSession (and reopen) c1 = %+v, %v; want it kept", got, err)
	}
}

// testConcurrentDecideCandidate: of many decisions racing on one candidate,
// exactly one succeeds; the others see ErrDecided.
func testConcurrentDecideCandidate(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	if _, err := s.PutCandidate(ctx, candidate("race", "s1")); err != nil {
		t.Fatal(err)
	}
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := persist.CandidateAccepted
			if i%2 == 1 {
				st = persist.CandidateRejected
			}
			_, errs[i] = s.DecideCandidate(ctx, "race", persist.CandidateDecision{Status: st, By: "user"})
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, persist.ErrDecided):
			t.Errorf("racing decision: %v", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d decisions succeeded, want exactly 1", won)
	}
}

func checkCandidateList(t *testing.T, s persist.Store, f persist.CandidateFilter, want ...string) {
	t.Helper()
	l, err := s.ListCandidates(context.Background(), f)
	if err != nil {
		t.Fatalf("ListCandidates %+v: %v", f, err)
	}
	var ids []string
	for _, c := range l {
		ids = append(ids, c.ID)
	}
	if len(ids) != len(want) {
		t.Fatalf("ListCandidates %+v = %v, want %v", f, ids, want)
	}
	for i := range want {
		if ids[i] != want[i] {
			t.Fatalf("ListCandidates %+v = %v, want %v", f, ids, want)
		}
	}
}
