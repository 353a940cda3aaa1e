package storetest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"pincer/persist"
)

// testPromptHistory: prompts are kept per project newest first, consecutive
// duplicates collapse (a repeat after another prompt is kept), blank and
// oversized prompts are not kept, limit cuts the list, and they survive a
// reopen.
func testPromptHistory(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	list := func(project string, limit int, want string) {
		t.Helper()
		got, err := s.ListPrompts(ctx, project, limit)
		if err != nil || got == nil || fmt.Sprintf("%q", got) != want {
			t.Fatalf("ListPrompts(%s, %d) = %q, %v; want %s", project, limit, got, err, want)
		}
	}
	list("/p", 0, `[]`)
	for _, p := range []string{"one", "two\nlines", "two\nlines", "three", "   ", "", "one",
		strings.Repeat("x", persist.MaxPromptBytes+1)} {
		if err := s.AppendPrompt(ctx, "/p", p); err != nil {
			t.Fatalf("AppendPrompt(%.20q): %v", p, err)
		}
	}
	if err := s.AppendPrompt(ctx, "/p/sub", "elsewhere"); err != nil {
		t.Fatal(err)
	}
	if h.Reopen != nil {
		s = h.reopen(t, s)
	}
	list("/p", 0, `["one" "three" "two\nlines" "one"]`)
	list("/p", 2, `["one" "three"]`)
	list("/p/sub", 0, `["elsewhere"]`)
	list("/q", 0, `[]`)
	for _, bad := range []string{"", "a\x00b"} {
		if err := s.AppendPrompt(ctx, bad, "x"); err == nil {
			t.Errorf("AppendPrompt(project %q) succeeded", bad)
		}
		if _, err := s.ListPrompts(ctx, bad, 0); err == nil {
			t.Errorf("ListPrompts(project %q) succeeded", bad)
		}
	}
}

// testPromptHistoryBounded: past persist.PromptHistoryLimit the oldest
// prompts are dropped, also when appends race.
func testPromptHistoryBounded(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	const workers = 4
	n := persist.PromptHistoryLimit + 40
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				if err := s.AppendPrompt(ctx, "/p", fmt.Sprintf("prompt %d", i)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	got, err := s.ListPrompts(ctx, "/p", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != persist.PromptHistoryLimit {
		t.Fatalf("%d prompts kept, want %d", len(got), persist.PromptHistoryLimit)
	}
	seen := map[string]bool{}
	for _, p := range got {
		if seen[p] {
			t.Fatalf("%q kept twice", p)
		}
		seen[p] = true
	}
	if err := s.AppendPrompt(ctx, "/p", "last"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ListPrompts(ctx, "/p", 1); len(got) != 1 || got[0] != "last" {
		t.Fatalf("newest = %q, want last", got)
	}
}

// testDrafts: one draft per project, replaced, deleted by "", kept across a
// reopen.
func testDrafts(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	get := func(project, want string) {
		t.Helper()
		if got, err := s.GetDraft(ctx, project); err != nil || got != want {
			t.Fatalf("GetDraft(%s) = %q, %v; want %q", project, got, err, want)
		}
	}
	get("/p", "")
	for _, d := range []string{"first", "half a\nthought"} {
		if err := s.PutDraft(ctx, "/p", d); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutDraft(ctx, "/other", "x"); err != nil {
		t.Fatal(err)
	}
	if h.Reopen != nil {
		s = h.reopen(t, s)
	}
	get("/p", "half a\nthought")
	get("/other", "x")
	if err := s.PutDraft(ctx, "/p", ""); err != nil {
		t.Fatal(err)
	}
	get("/p", "")
	get("/other", "x")
	if err := s.PutDraft(ctx, "", "x"); err == nil {
		t.Fatal("PutDraft with an empty project succeeded")
	}
}
