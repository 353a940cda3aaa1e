package app

import (
	"context"
	"testing"
	"time"

	"pincer/persist"
	"pincer/persist/memory"
)

// TestContinuePassesOverSessionsWithoutAPrompt: --continue picks the newest
// session of the directory in which a prompt was sent; a newer one without
// any (another workbench open now, or one a crash left) is passed over, so is
// a subagent's child session (newer than its parent, in the same directory), and
// a directory with only such sessions has nothing to continue.
func TestContinuePassesOverSessionsWithoutAPrompt(t *testing.T) {
	ctx := context.Background()
	store := memory.New()
	now := time.Now().UTC()
	for _, s := range []persist.Session{
		{ID: "s-old", Title: "fix the parser", Cwd: "/w", Status: "idle", UpdatedAt: now.Add(-time.Hour)},
		{ID: "s-empty", Title: "", Cwd: "/w", Status: "idle", UpdatedAt: now},
		{ID: "s-child", Title: "a subagent's task", Cwd: "/w", Status: "idle", UpdatedAt: now, ParentID: "s-old"},
		{ID: "s-only-empty", Title: "", Cwd: "/v", Status: "idle", UpdatedAt: now},
	} {
		s.CreatedAt = s.UpdatedAt
		if err := store.PutSession(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	got, err := FindSession(ctx, store, "", true, "/w")
	if err != nil || got.ID != "s-old" {
		t.Fatalf("--continue in /w = %s, %v; want s-old", got.ID, err)
	}
	if got, err := FindSession(ctx, store, "", true, "/v"); err == nil {
		t.Fatalf("--continue in /v = %s, want no session to continue", got.ID)
	}
	if got, err := FindSession(ctx, store, "s-empty", false, ""); err != nil || got.ID != "s-empty" {
		t.Fatalf("--session of an empty session = %s, %v (named, it opens)", got.ID, err)
	}
}
