package tui

import (
	"strings"
	"testing"
)

// TestApprovalsTitle: the decided count stays in the title while decided
// requests are listed, in its short form ("(0 · 2 done)") where the long one
// does not fit; it goes only when not even the short form fits.
func TestApprovalsTitle(t *testing.T) {
	w := &Workbench{keys: DefaultKeyMap(), UIState: UIState{sessionTab: &sessionTab{model: NewModel()}}}
	for _, tc := range []struct {
		n, decided, width int
		want              string
	}{
		{0, 0, 40, " 3 Approvals (0) "},
		{0, 0, 18, " 3 Approvals "},
		{0, 2, 40, " 3 Approvals (0) · 2 decided "},
		{0, 2, 28, " 3 Approvals (0 · 2 done) "},
		{0, 2, 20, " 3 (0 · 2 done) "},
		{0, 2, 17, " 3 Approvals "},
		{0, 2, 8, " 3 "},
		{1, 3, 42, " 3 Approvals (1 · 3 done) · ⏵ y/s/a/n/N "},
		{1, 3, 30, " 3 (1 · 3 done) ⏵ y/s/a/n/N "},
		{1, 1, 20, " 3 (1 · 1 done) "},
		{1, 0, 33, " 3 Approvals (1) · ⏵ y/s/a/n/N "},
		{1, 0, 30, " 3 Approvals (1) "},
	} {
		got := w.approvalsTitle(tc.n, tc.decided, "", tc.width)
		if got != tc.want {
			t.Errorf("n %d, decided %d, width %d: %q, want %q", tc.n, tc.decided, tc.width, got, tc.want)
		}
		if textWidth(got) > tc.width-2 && strings.TrimSpace(got) != "3" {
			t.Errorf("width %d: %q does not fit", tc.width, got)
		}
	}
}
