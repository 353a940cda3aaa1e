package tui

import (
	"strings"
	"testing"
)

// TestWrapHelpLines: a help line wider than the screen wraps under its text;
// one that fits is unchanged; no row is wider than the width.
func TestWrapHelpLines(t *testing.T) {
	esc := "  Esc                      cancel the running turn (first it unzooms a pane or closes a view)"
	for _, tc := range []struct {
		width int
		want  []string
	}{
		{120, []string{esc}},
		{76, []string{"  Esc                      cancel the running turn (first it unzooms a pane",
			"                           or closes a view)"}},
		{40, []string{"  Esc                      cancel the", "    running turn (first it unzooms a", "    pane or closes a view)"}},
	} {
		got := wrapHelpLines([]string{esc}, tc.width)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("width %d:\n%s\nwant\n%s", tc.width, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
		for _, l := range got {
			if textWidth(l) > tc.width {
				t.Errorf("width %d: %q is wider", tc.width, l)
			}
		}
	}
}
