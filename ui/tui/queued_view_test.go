package tui

import "testing"

// TestQueuedPreview: the first non-blank line, cut at n runes (never inside
// a rune), with the count of lines after it.
func TestQueuedPreview(t *testing.T) {
	for _, c := range []struct {
		text string
		n    int
		want string
	}{
		{"fix the tests", 32, "fix the tests"},
		{"\n\n  fix the tests  \nand then lint\nand commit", 32, "fix the tests (+2 lines)"},
		{"abcdefghij", 4, "abcd…"},
		{"日本語のテキスト", 3, "日本語…"},
		{"[red]x[-]", 32, "[red]x[-]"},
	} {
		if got := queuedPreview(c.text, c.n); got != c.want {
			t.Errorf("queuedPreview(%q, %d) = %q, want %q", c.text, c.n, got, c.want)
		}
	}
	if got := queuedLabel("[red]x"); got != "«[red[]x»" {
		t.Errorf("queuedLabel escapes no tags: %q", got)
	}
}
