package tui

import (
	"strings"
	"testing"
)

// TestHelpSaysWhereAKeyMeansWhat (NU10): F1 listed Shift+Tab twice with two
// meanings; the Anywhere one now says it does not apply in the input box,
// and a key only one context binds gets no such note.
func TestHelpSaysWhereAKeyMeansWhat(t *testing.T) {
	var prev, next string
	for _, l := range DefaultKeyMap().HelpLines() {
		switch {
		case strings.Contains(l, "focus the previous pane"):
			prev = l
		case strings.Contains(l, "focus the next pane"):
			next = l
		}
	}
	if !strings.Contains(strings.ToLower(prev), "shift+tab") || !strings.HasSuffix(prev, "(not in the input box)") {
		t.Errorf("the previous-pane line = %q, want it to say it is not the input box's", prev)
	}
	if strings.Contains(next, "not in the input box") {
		t.Errorf("the next-pane line = %q: Tab is not the input box's", next)
	}
}
