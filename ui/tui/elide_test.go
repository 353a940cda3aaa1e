package tui

import "testing"

// TestElideMiddle: a long text keeps its start and end around "…" in exactly
// width cells; wide runes are never split.
func TestElideMiddle(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		want  string
	}{
		{"settings.py", 20, "settings.py"},
		{"Edit src/app/settings.py", 15, "Edit sr…ings.py"},
		{"abcdef", 1, "…"},
		{"abcdef", 0, ""},
		{"日本語のファイル", 7, "日…イル"},
	} {
		got := elideMiddle(tc.in, tc.width)
		if got != tc.want || textWidth(got) > tc.width {
			t.Errorf("elideMiddle(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
}

// TestFitListRow: a row's text and detail share the width; the detail (the
// state) keeps at least half and both are elided in the middle, never cut.
func TestFitListRow(t *testing.T) {
	for _, tc := range []struct {
		text, detail string
		avail        int
		wantT, wantD string
	}{
		{"Edit settings.py", "denied", 40, "Edit settings.py", "denied"},
		{"Edit settings.py", "Edit needs approval (default mode asks before a file changes)", 27,
			"Edit s…ngs.py", "Edit n…nges)"},
		{"Edit src/very/long/path/settings.py", "allowed session (you)", 30, "Edit sr…ngs.py", "allowed… (you)"},
		{"Edit settings.py", "denied", 12, "Edit s…gs.py", ""},
		{"Edit settings.py", "", 10, "Edit …s.py", ""},
	} {
		gt, gd := fitListRow(tc.text, tc.detail, tc.avail)
		if gt != tc.wantT || gd != tc.wantD {
			t.Errorf("fitListRow(%q, %q, %d) = %q, %q; want %q, %q", tc.text, tc.detail, tc.avail, gt, gd, tc.wantT, tc.wantD)
		}
		if w := textWidth(gt) + textWidth(gd); gd != "" && w+2 > tc.avail {
			t.Errorf("fitListRow(%q, %q, %d) takes %d cells", tc.text, tc.detail, tc.avail, w+2)
		}
	}
}
