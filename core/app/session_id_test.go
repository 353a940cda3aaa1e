package app

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"pincer/persist"
	"pincer/persist/memory"
)

func TestResolveSessionID(t *testing.T) {
	ctx := context.Background()
	store := memory.New()
	now := time.Now().UTC()
	for _, id := range []string{"20260101-120000-ab12cd34", "20260101-130000-ab99ee00", "20260102-090000-77aa88bb"} {
		if err := store.PutSession(ctx, persist.Session{ID: id, CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		in, want   string
		candidates int // -1: no error
	}{
		{"20260101-120000-ab12cd34", "20260101-120000-ab12cd34", -1},
		{"ab12cd34", "20260101-120000-ab12cd34", -1},
		{"cd34", "20260101-120000-ab12cd34", -1},
		{"20260102", "20260102-090000-77aa88bb", -1},
		{"20260101", "", 2},
		{"zzzz", "", 0},
		{"", "", 0},
	} {
		got, err := ResolveSessionID(ctx, store, tc.in)
		var ie *SessionIDError
		switch {
		case tc.candidates < 0 && (err != nil || got != tc.want):
			t.Errorf("ResolveSessionID(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		case tc.candidates >= 0 && (!errors.As(err, &ie) || len(ie.Candidates) != tc.candidates):
			t.Errorf("ResolveSessionID(%q) = %q, %v; want an error with %d candidates", tc.in, got, err, tc.candidates)
		case tc.candidates > 0 && !strings.Contains(err.Error(), "20260101-130000-ab99ee00"):
			t.Errorf("ambiguous error does not list the candidates: %v", err)
		}
	}
}
