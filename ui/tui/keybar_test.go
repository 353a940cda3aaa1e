package tui

import (
	"strings"
	"testing"
)

// TestFitKeyBar: the approval keys come first and whole at 80, 120 and 200
// columns; the generic keys fill what is left, dropped first; a bar too
// narrow even for the approval labels keeps their keys.
func TestFitKeyBar(t *testing.T) {
	appr := []string{"y once", "s session", "a always", "n deny", "N deny with reason"}
	generic := []string{"j down", "k up", "z zoom the pane to full screen and back", "Esc cancel the running turn",
		"Ctrl+C quit", "Tab focus the next pane", "F1 help", "Ctrl+O sessions browser"}
	head := "y once · s session · a always · n deny · N deny with reason"
	for _, tc := range []struct {
		width     int
		first     []string
		want      string // prefix
		wantItems int    // generic items shown
	}{
		{80, appr, head + "  ·  j down  ·  k up", 2},
		{120, appr, head + "  ·  j down  ·  k up", 3},
		{200, appr, head + "  ·  j down  ·  k up  ·  z zoom", 6},
		{40, appr, "y s a n N", 2},
		{80, nil, "j down  ·  k up  ·  z zoom", 4},
	} {
		got := fitKeyBar(tc.first, generic, tc.width)
		if !strings.HasPrefix(got, tc.want) || textWidth(got) > tc.width {
			t.Errorf("width %d: %q (%d cells), want prefix %q", tc.width, got, textWidth(got), tc.want)
		}
		if tc.first != nil && tc.width >= 80 && !strings.Contains(got, "N deny with reason") {
			t.Errorf("width %d: the approval keys were cut: %q", tc.width, got)
		}
		n := 0
		for _, g := range generic {
			if strings.Contains(got, g) {
				n++
			}
		}
		if n != tc.wantItems {
			t.Errorf("width %d: %d generic items in %q, want %d", tc.width, n, got, tc.wantItems)
		}
	}
}
