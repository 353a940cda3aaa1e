package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/checkpoint"
	"pincer/core/message"
	"pincer/persist"
	"pincer/persist/memory"
)

// spanSession records a session of two turns in a temporary workspace: turn
// 1's call c1 edits a.txt, c2 (a command's scan) deletes b.txt and creates
// c.txt; turn 2's call c3 edits a.txt again.
func spanSession(t *testing.T) (persist.Store, string) {
	t.Helper()
	ctx := context.Background()
	root, store := t.TempDir(), memory.New()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "one\n")
	write("b.txt", "bee\n")
	rec, err := checkpoint.New(store, root, checkpoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	if err := store.PutSession(ctx, persist.Session{ID: "s-1", Cwd: root}); err != nil {
		t.Fatal(err)
	}
	for _, turn := range []string{"t1", "t2"} {
		if _, err := store.AppendMessage(ctx, message.Message{ID: "m-" + turn, SessionID: "s-1", TurnID: turn,
			Role: message.RoleUser, Parts: []message.Part{{Type: message.PartText, Text: "go " + turn}}}); err != nil {
			t.Fatal(err)
		}
	}
	call := func(turn, id string, scan bool, change func()) {
		var paths []string
		if !scan {
			paths = []string{filepath.Join(root, "a.txt")}
		}
		p := rec.Before(ctx, paths, scan)
		change()
		if _, changed, err := p.After(ctx, "s-1", turn, id, "Edit"); err != nil || !changed {
			t.Fatalf("checkpoint of %s: changed %v, %v", id, changed, err)
		}
	}
	call("t1", "c1", false, func() { write("a.txt", "two\n") })
	call("t1", "c2", true, func() {
		_ = os.Remove(filepath.Join(root, "b.txt"))
		write("c.txt", "sea\n")
	})
	call("t2", "c3", false, func() { write("a.txt", "three\n") })
	return store, "s-1"
}

// TestSessionDiffSpans: a span narrows the session's diff to a turn, a
// call, or the checkpoints up to one (the time travel's start-to-step).
func TestSessionDiffSpans(t *testing.T) {
	store, id := spanSession(t)
	cases := []struct {
		name      string
		span      DiffSpan
		want, not []string
	}{
		{"whole session", DiffSpan{}, []string{"-one", "+three", "deleted file mode", "b/c.txt"}, []string{"+two"}},
		{"turn 1", DiffSpan{Turn: 1}, []string{"-one", "+two", "a/b.txt", "b/c.txt"}, []string{"three"}},
		{"turn 2", DiffSpan{Turn: 2}, []string{"-two", "+three"}, []string{"b.txt", "c.txt"}},
		{"the command's call", DiffSpan{ToolCallID: "c2"}, []string{"-bee", "+sea"}, []string{"a.txt"}},
		{"through checkpoint 1", DiffSpan{Through: 1}, []string{"-one", "+two"}, []string{"b.txt", "three"}},
		{"through checkpoint 2", DiffSpan{Through: 2}, []string{"+two", "-bee", "+sea"}, []string{"three"}},
		{"turn t2 by its ID", DiffSpan{TurnID: "t2"}, []string{"-two", "+three"}, []string{"b.txt", "c.txt"}},
		{"turn t1 through checkpoint 1", DiffSpan{TurnID: "t1", Through: 1}, []string{"+two"}, []string{"c.txt", "three"}},
		{"turn 1, call c1", DiffSpan{Turn: 1, ToolCallID: "c1"}, []string{"+two"}, []string{"c.txt"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := SessionDiffOf(t.Context(), store, id, c.span)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(d, w) {
					t.Errorf("no %q in\n%s", w, d)
				}
			}
			for _, n := range c.not {
				if strings.Contains(d, n) {
					t.Errorf("%q in\n%s", n, d)
				}
			}
		})
	}
	if _, err := SessionDiffOf(t.Context(), store, id, DiffSpan{Turn: 3}); err == nil || !strings.Contains(err.Error(), "no turn 3 (it has 2)") {
		t.Errorf("turn 3: %v", err)
	}
	whole, _ := SessionDiff(t.Context(), store, id, 0)
	if span, _ := SessionDiffOf(t.Context(), store, id, DiffSpan{}); whole != span {
		t.Errorf("SessionDiff and the zero span differ:\n%s\n%s", whole, span)
	}
}
