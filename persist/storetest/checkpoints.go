package storetest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"pincer/persist"
)

// testCheckpoints: blobs are content-addressed (a second put keeps the first),
// checkpoints are numbered per session from 1 and listed in order, per session
// and across sessions; deletes are idempotent; DeleteSession takes a
// session's checkpoints (not the blobs, which other sessions may share).
func testCheckpoints(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	hash := strings.Repeat("ab", 32)
	if err := s.PutBlob(ctx, hash, []byte("first")); err != nil {
		t.Fatal(err)
	}
	if err := s.PutBlob(ctx, hash, []byte("second")); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetBlob(ctx, hash); err != nil || string(got) != "first" {
		t.Fatalf("GetBlob = %q, %v; want the first put kept", got, err)
	}
	if err := s.PutBlob(ctx, "../x", nil); err == nil {
		t.Fatal("PutBlob accepted a hash that is not hex")
	}
	blobs, err := s.ListBlobs(ctx)
	if err != nil || len(blobs) != 1 || blobs[hash] <= 0 {
		t.Fatalf("ListBlobs = %v, %v", blobs, err)
	}
	for i, id := range []string{"s1", "s1", "s2"} {
		c, err := s.AppendCheckpoint(ctx, persist.Checkpoint{SessionID: id, Tool: "Edit", ToolCallID: string(rune('a' + i)),
			Files: []persist.CheckpointFile{{Path: "a.txt", Before: persist.FileVersion{Absent: true}, After: persist.FileVersion{Hash: hash, Size: 5}}}})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[int]uint64{0: 1, 1: 2, 2: 1}[i]; c.Seq != want || c.Time.IsZero() {
			t.Fatalf("checkpoint %d: Seq %d (want %d), Time %v", i, c.Seq, want, c.Time)
		}
	}
	l, err := s.ListCheckpoints(ctx, "s1")
	if err != nil || len(l) != 2 || l[0].ToolCallID != "a" || l[1].ToolCallID != "b" || l[1].Files[0].After.Hash != hash {
		t.Fatalf("ListCheckpoints(s1) = %+v, %v", l, err)
	}
	if all, err := s.ListCheckpoints(ctx, ""); err != nil || len(all) != 3 {
		t.Fatalf("ListCheckpoints(all) = %d, %v", len(all), err)
	}
	if err := s.DeleteCheckpoint(ctx, "s1", 1); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteCheckpoint(ctx, "s1", 1); err != nil {
		t.Fatal("a second delete failed:", err)
	}
	if l, _ := s.ListCheckpoints(ctx, "s1"); len(l) != 1 || l[0].Seq != 2 {
		t.Fatalf("after delete: %+v", l)
	}
	if err := s.PutSession(ctx, persist.Session{ID: "s2"}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSession(ctx, "s2"); err != nil {
		t.Fatal(err)
	}
	if l, _ := s.ListCheckpoints(ctx, "s2"); len(l) != 0 {
		t.Fatalf("DeleteSession left checkpoints: %+v", l)
	}
	if err := s.DeleteBlob(ctx, hash); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetBlob(ctx, hash); !errors.Is(err, persist.ErrNotFound) {
		t.Fatalf("GetBlob after delete: %v", err)
	}
	if h.Reopen != nil {
		s = h.Reopen(t, s)
		if l, err := s.ListCheckpoints(ctx, "s1"); err != nil || len(l) != 1 {
			t.Fatalf("after reopen: %+v, %v", l, err)
		}
	}
}
