package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"pincer/core/message"
	"pincer/persist"
	"pincer/persist/internal/record"
)

// garbage is what a damaged record looks like to the decoder.
var garbage = []byte("{\"seq\": \x00\xff not json")

// corrupt overwrites the stored value under a key of the layout with garbage,
// skipping the case when the store cannot be damaged (no WriteRaw).
func corrupt(t *testing.T, h Harness, s persist.Store, key []byte) {
	t.Helper()
	if h.WriteRaw == nil {
		t.Skipf("%s has no WriteRaw", h.Name)
	}
	h.WriteRaw(t, s, key, garbage)
}

func testCorruptRecordsAreSkippedAndReported(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	for i := range 3 {
		m := message.NewText(message.RoleUser, fmt.Sprint(i+1))
		m.SessionID = "s"
		if _, err := s.AppendMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
		if err := s.PutSession(ctx, persist.Session{ID: fmt.Sprint("s", i), UpdatedAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	appendEvents(t, s, "s", 1, 5)
	corrupt(t, h, s, record.SeqKey(record.KindMessage, "s", 2))
	corrupt(t, h, s, record.SeqKey(record.KindEvent, "s", 2))
	corrupt(t, h, s, record.SeqKey(record.KindEvent, "s", 4))
	corrupt(t, h, s, record.SessionKey("s1"))

	msgs, err := s.ListMessages(ctx, "s")
	var ce *persist.CorruptError
	if !errors.As(err, &ce) || !errors.Is(err, persist.ErrCorrupt) || ce.Count != 1 {
		t.Fatalf("ListMessages err = %v, want a persist.CorruptError of 1", err)
	}
	if want := "persist: 1 corrupt message record(s) in session s skipped"; err.Error() != want {
		t.Fatalf("message = %q, want %q", err, want)
	}
	if len(msgs) != 2 || msgs[0].Seq != 1 || msgs[1].Seq != 3 {
		t.Fatalf("ListMessages kept %+v, want messages 1 and 3", msgs)
	}

	evs, err := s.ListEvents(ctx, "s", 0, 2)
	if !errors.As(err, &ce) || ce.Count != 1 || fmt.Sprint(seqs(evs)) != "[1 3]" {
		t.Fatalf("ListEvents(limit 2) = %v, %v; want [1 3] and 1 corrupt (the scan stops at the limit)", seqs(evs), err)
	}
	evs, err = s.ListEvents(ctx, "s", 0, 0)
	if !errors.Is(err, persist.ErrCorrupt) || fmt.Sprint(seqs(evs)) != "[1 3 5]" {
		t.Fatalf("ListEvents = %v, %v", seqs(evs), err)
	}
	if last, err := s.LastEventSequence(ctx, "s"); err != nil || last != 5 {
		t.Fatalf("LastEventSequence = %d, %v", last, err)
	}

	sessions, err := s.ListSessions(ctx, 0)
	if !errors.Is(err, persist.ErrCorrupt) || len(sessions) != 2 {
		t.Fatalf("ListSessions = %+v, %v", sessions, err)
	}
	if _, err := s.GetSession(ctx, "s1"); !errors.Is(err, persist.ErrCorrupt) {
		t.Fatalf("GetSession(corrupt) = %v", err)
	}
	// Replacing a corrupt session record works and lists it again.
	if err := s.PutSession(ctx, persist.Session{ID: "s1", UpdatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if sessions, err := s.ListSessions(ctx, 0); err != nil || len(sessions) != 3 {
		t.Fatalf("ListSessions after repair = %+v, %v", sessions, err)
	}
	// Appending goes on after the damaged record.
	m := message.NewText(message.RoleUser, "4")
	m.SessionID = "s"
	if m, err = s.AppendMessage(ctx, m); err != nil || m.Seq != 4 {
		t.Fatalf("AppendMessage = %+v, %v", m, err)
	}
}
