package persist

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"pincer/core/message"
)

// garbage is what a damaged record looks like to the decoder.
var garbage = []byte("{\"seq\": \x00\xff not json")

// corrupt overwrites the stored value under a key of the layout with garbage.
func corrupt(t *testing.T, s Store, key []byte) {
	t.Helper()
	switch s := s.(type) {
	case *remoteStore:
		corrupt(t, s.backing, key)
	case *Memory:
		s.mu.Lock()
		defer s.mu.Unlock()
		kind, rest := key[0], string(key[2:])
		switch kind {
		case kindSession:
			s.sessions[rest] = garbage
		case kindMessage, kindEvent:
			sid, seq := rest[:len(rest)-9], key[len(key)-8:]
			n := uint64(0)
			for _, c := range seq {
				n = n<<8 | uint64(c)
			}
			if kind == kindMessage {
				s.messages[sid][n-1] = garbage
			} else {
				s.events[sid].data[n] = garbage
			}
		}
	case *Badger:
		err := s.db.Update(func(txn *badger.Txn) error { return txn.Set(key, garbage) })
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestCorruptRecordsAreSkippedAndReported(t *testing.T) {
	forEach(t, func(t *testing.T, h harness) {
		ctx := context.Background()
		s := h.open(t)
		for i := range 3 {
			m := message.NewText(message.RoleUser, fmt.Sprint(i+1))
			m.SessionID = "s"
			if _, err := s.AppendMessage(ctx, m); err != nil {
				t.Fatal(err)
			}
			if err := s.PutSession(ctx, Session{ID: fmt.Sprint("s", i), UpdatedAt: t0}); err != nil {
				t.Fatal(err)
			}
		}
		appendEvents(t, s, "s", 1, 5)
		corrupt(t, s, seqKey(kindMessage, "s", 2))
		corrupt(t, s, seqKey(kindEvent, "s", 2))
		corrupt(t, s, seqKey(kindEvent, "s", 4))
		corrupt(t, s, sessionKey("s1"))

		msgs, err := s.ListMessages(ctx, "s")
		var ce *CorruptError
		if !errors.As(err, &ce) || !errors.Is(err, ErrCorrupt) || ce.Count != 1 {
			t.Fatalf("ListMessages err = %v, want a CorruptError of 1", err)
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
		if !errors.Is(err, ErrCorrupt) || fmt.Sprint(seqs(evs)) != "[1 3 5]" {
			t.Fatalf("ListEvents = %v, %v", seqs(evs), err)
		}
		if last, err := s.LastEventSequence(ctx, "s"); err != nil || last != 5 {
			t.Fatalf("LastEventSequence = %d, %v", last, err)
		}

		sessions, err := s.ListSessions(ctx, 0)
		if !errors.Is(err, ErrCorrupt) || len(sessions) != 2 {
			t.Fatalf("ListSessions = %+v, %v", sessions, err)
		}
		if _, err := s.GetSession(ctx, "s1"); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("GetSession(corrupt) = %v", err)
		}
		// Replacing a corrupt session record works and lists it again.
		if err := s.PutSession(ctx, Session{ID: "s1", UpdatedAt: t0}); err != nil {
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
	})
}

// TestOversizedValueErrorIsShort checks that Badger's size errors, which embed a hex
// dump of the value, never reach the caller raw.
func TestOversizedValueErrorIsShort(t *testing.T) {
	for _, h := range harnesses[1:] {
		t.Run(h.name, func(t *testing.T) {
			s, ok := h.open(t).(*Badger)
			if !ok {
				t.Skip("the limit is the store's own")
			}
			size := valueLogFileSize + 1
			if s.Dir() == "" {
				size = valueThresholdInMemory + 1
			}
			m := message.NewText(message.RoleTool, strings.Repeat("x", size))
			m.SessionID = "s"
			_, err := s.AppendMessage(context.Background(), m)
			if err == nil {
				t.Fatal("oversized message stored")
			}
			if msg := err.Error(); len(msg) > 200 || strings.Contains(msg, "\n") {
				t.Fatalf("error is not one short line: %.300q", msg)
			}
			// The sequence was not consumed.
			m = message.NewText(message.RoleUser, "small")
			m.SessionID = "s"
			if m, err = s.AppendMessage(context.Background(), m); err != nil || m.Seq != 1 {
				t.Fatalf("AppendMessage after failure = %d, %v", m.Seq, err)
			}
		})
	}
}

func TestShortMessage(t *testing.T) {
	err := errors.New("Value with size 99 exceeded 10 limit. Value:\n00000000  78 78 78  |xxx|\n")
	if got := shortMessage(err); got != "Value with size 99 exceeded 10 limit. Value" {
		t.Fatalf("shortMessage = %q", got)
	}
	long := errors.New(strings.Repeat("y", 500))
	if got := shortMessage(long); len(got) > maxErrLen+len("…") {
		t.Fatalf("shortMessage kept %d bytes", len(got))
	}
}
