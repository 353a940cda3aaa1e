package tui

import "testing"

// TestPromptHistoryNavigation walks Up (o) and Down (n) over a history and
// checks what the box shows after each step.
func TestPromptHistoryNavigation(t *testing.T) {
	cases := []struct {
		name    string
		entries []string // newest first
		typed   string
		steps   string // o = older (Up), n = newer (Down)
		want    []string
	}{
		{"empty history", nil, "draft", "on", []string{"-", "-"}},
		{"up twice then down back to typed", []string{"c", "b", "a"}, "draft", "oonn",
			[]string{"c", "b", "c", "draft"}},
		{"stops at the oldest", []string{"b", "a"}, "", "ooo", []string{"b", "a", "-"}},
		{"down without browsing", []string{"a"}, "x", "n", []string{"-"}},
		{"down past typed", []string{"a"}, "x", "onn", []string{"a", "x", "-"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newPromptHistory()
			h.load(c.entries)
			box := c.typed
			for i, s := range c.steps {
				var got string
				var ok bool
				if s == 'o' {
					got, ok = h.older(box)
				} else {
					got, ok = h.newer()
				}
				if !ok {
					got = "-"
				} else {
					box = got
				}
				if got != c.want[i] {
					t.Fatalf("step %d (%c) = %q, want %q", i, s, got, c.want[i])
				}
			}
		})
	}
}

// TestPromptHistoryAddAndLoad: a sent prompt becomes the newest, a repeat is
// kept once, and the stored prompts load behind those sent meanwhile.
func TestPromptHistoryAddAndLoad(t *testing.T) {
	h := newPromptHistory()
	h.add("new")
	h.add("new")
	h.add("  ")
	h.load([]string{"new", "old"})
	if got := h.entries; len(got) != 2 || got[0] != "new" || got[1] != "old" {
		t.Fatalf("entries = %q, want [new old]", got)
	}
	h.older("")
	h.add("newest")
	if h.pos != -1 || h.entries[0] != "newest" {
		t.Fatalf("after add: pos %d, entries %q", h.pos, h.entries)
	}
}

// TestCursorLines decides where Up and Down browse the history.
func TestCursorLines(t *testing.T) {
	cases := []struct {
		text        string
		cursor      int
		first, last bool
	}{
		{"", 0, true, true},
		{"one line", 3, true, true},
		{"a\nb", 0, true, false},
		{"a\nb", 1, true, false},
		{"a\nb", 2, false, true},
		{"a\nb\nc", 3, false, false},
	}
	for _, c := range cases {
		if f, l := onFirstLine(c.text, c.cursor), onLastLine(c.text, c.cursor); f != c.first || l != c.last {
			t.Errorf("%q at %d: first %v last %v, want %v %v", c.text, c.cursor, f, l, c.first, c.last)
		}
	}
}

// TestSearchHistory is Ctrl+R's match: newest first from an index,
// case-insensitive.
func TestSearchHistory(t *testing.T) {
	entries := []string{"run the Tests", "fix lint", "run tests again", "deploy"}
	cases := []struct {
		query string
		from  int
		want  int
	}{
		{"test", 0, 0},
		{"test", 1, 2},
		{"test", 3, -1},
		{"", 0, 0},
		{"DEPLOY", 0, 3},
		{"nothing", 0, -1},
	}
	for _, c := range cases {
		if got := searchHistory(entries, c.query, c.from); got != c.want {
			t.Errorf("search %q from %d = %d, want %d", c.query, c.from, got, c.want)
		}
	}
}
