package app

import (
	"context"
	"strings"
	"testing"

	"pincer/persist"
	"pincer/persist/memory"
)

// A branch's diff of its copied turns says where they were made.
func TestSessionDiffOfBranchNamesOrigin(t *testing.T) {
	ctx := context.Background()
	s := memory.New()
	if err := s.PutSession(ctx, persist.Session{ID: "branch-1", BranchOf: "origin-1", BranchTurn: 3}); err != nil {
		t.Fatal(err)
	}
	d, err := SessionDiff(ctx, s, "branch-1", 0)
	if err != nil || !strings.Contains(d, "# turns 1-2 are copied from session origin-1") {
		t.Fatalf("diff %q, %v", d, err)
	}
}
