package storetest

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"testing"
	"time"

	"pincer/core/message"
	"pincer/persist"
)

// fakeClock is a settable clock for lease and timestamp tests.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// t0 is the suite's fixed time.
var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func testSessionsNewestFirst(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	put := func(id, title string, at time.Duration) {
		t.Helper()
		err := s.PutSession(ctx, persist.Session{ID: id, Title: title, Cwd: "/w", Model: "m",
			Status: "idle", CreatedAt: t0, UpdatedAt: t0.Add(at)})
		if err != nil {
			t.Fatal(err)
		}
	}
	order := func(limit int, want ...string) {
		t.Helper()
		got, err := s.ListSessions(ctx, limit)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, g := range got {
			ids = append(ids, g.ID)
		}
		if fmt.Sprint(ids) != fmt.Sprint(want) {
			t.Fatalf("ListSessions(%d) = %v, want %v", limit, ids, want)
		}
	}
	order(0)
	put("a", "first", 1*time.Second)
	put("b", "second", 2*time.Second)
	put("c", "third", 3*time.Second)
	order(0, "c", "b", "a")
	put("a", "first again", 4*time.Second) // moves to the front, old index key gone
	order(0, "a", "c", "b")
	order(2, "a", "c")
	put("b", "renamed", 2*time.Second) // same UpdatedAt: same place
	put("d", "tie", 3*time.Second)     // ties sort by id
	order(0, "a", "c", "d", "b")
	if h.Reopen != nil {
		s = h.reopen(t, s)
		order(0, "a", "c", "d", "b")
	}
	got, err := s.GetSession(ctx, "b")
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "renamed" || !got.UpdatedAt.Equal(t0.Add(2*time.Second)) || !got.CreatedAt.Equal(t0) ||
		got.Cwd != "/w" || got.Status != "idle" || got.Model != "m" {
		t.Fatalf("GetSession = %+v", got)
	}
}

func testGetSessionNotFound(t *testing.T, h Harness) {
	_, err := h.Open(t).GetSession(context.Background(), "nope")
	if !errors.Is(err, persist.ErrNotFound) {
		t.Fatalf("err = %v, want persist.ErrNotFound", err)
	}
}

func testInvalidSessionID(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	for _, id := range []string{"", "a/b"} {
		if err := s.PutSession(ctx, persist.Session{ID: id}); err == nil {
			t.Errorf("PutSession(%q) succeeded", id)
		}
		if _, err := s.AppendMessage(ctx, message.Message{SessionID: id}); err == nil {
			t.Errorf("AppendMessage(%q) succeeded", id)
		}
	}
}

var hexID = regexp.MustCompile(`^[0-9a-f]{16}$`)

func testMessageSequence(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	clock := &fakeClock{t: t0}
	h.setClock(t, s, clock.Now)
	add := func(sid, text string, want uint64) message.Message {
		t.Helper()
		m := message.NewText(message.RoleUser, text)
		m.SessionID = sid
		got, err := s.AppendMessage(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		if got.Seq != want {
			t.Fatalf("Seq = %d, want %d", got.Seq, want)
		}
		return got
	}
	first := add("s1", "one", 1)
	if !hexID.MatchString(first.ID) || !first.CreatedAt.Equal(t0) || first.CreatedAt.Location() != time.UTC {
		t.Fatalf("first = %+v: want a 16-hex ID and CreatedAt %v UTC", first, t0)
	}
	add("s1", "two", 2)
	add("s2", "other", 1)
	kept := message.Message{ID: "mine", SessionID: "s1", Role: message.RoleAssistant,
		CreatedAt: t0.Add(time.Hour), Parts: []message.Part{{Type: message.PartToolCall, ToolCallID: "c", ToolName: "read", Input: "{}"}},
		Usage: &message.Usage{InputTokens: 3}}
	got, err := s.AppendMessage(ctx, kept)
	if err != nil || got.Seq != 3 || got.ID != "mine" || !got.CreatedAt.Equal(t0.Add(time.Hour)) {
		t.Fatalf("AppendMessage = %+v, %v", got, err)
	}
	if h.Reopen != nil {
		s = h.reopen(t, s)
	}
	add("s1", "four", 4)
	msgs, err := s.ListMessages(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for i, m := range msgs {
		if m.Seq != uint64(i+1) || m.SessionID != "s1" {
			t.Fatalf("message %d = %+v", i, m)
		}
		texts = append(texts, m.Text())
	}
	if fmt.Sprint(texts) != "[one two  four]" {
		t.Fatalf("texts = %q", texts)
	}
	if msgs[2].Usage == nil || msgs[2].Usage.InputTokens != 3 || msgs[2].ToolCalls()[0].ToolName != "read" {
		t.Fatalf("message 3 = %+v", msgs[2])
	}
	// The result is a copy: changing it changes nothing stored.
	msgs[0].Parts[0].Text = "changed"
	again, _ := s.ListMessages(ctx, "s1")
	if again[0].Text() != "one" {
		t.Fatal("stored message changed through a returned copy")
	}
	if none, err := s.ListMessages(ctx, "none"); err != nil || len(none) != 0 {
		t.Fatalf("ListMessages(none) = %v, %v", none, err)
	}
}

func testConcurrentAppendMessage(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	const workers, each = 8, 50
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				m := message.NewText(message.RoleUser, fmt.Sprintf("w%d-%d", w, i))
				m.SessionID = "s"
				if _, err := s.AppendMessage(ctx, m); err != nil {
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
	msgs, err := s.ListMessages(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != workers*each {
		t.Fatalf("%d messages, want %d", len(msgs), workers*each)
	}
	for i, m := range msgs {
		if m.Seq != uint64(i+1) {
			t.Fatalf("message %d has Seq %d", i, m.Seq)
		}
	}
}

func testClosed(t *testing.T, h Harness) {
	s := h.Open(t)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetSession(context.Background(), "x"); !errors.Is(err, persist.ErrClosed) {
		t.Fatalf("GetSession after Close: %v, want persist.ErrClosed", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}
