package tui

import (
	"strings"
	"testing"
)

func TestElideEnd(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int
		want  string
	}{
		{"Edit main.go", 20, "Edit main.go"},
		{"Edit main.go", 12, "Edit main.go"},
		{"Edit main.go", 8, "Edit ma…"},
		{"Edit main.go", 1, "…"},
		{"Edit main.go", 0, ""},
		{"Write 日本語.py", 9, "Write 日…"}, // a wide character is never split
	} {
		if got := elideEnd(tc.s, tc.width); got != tc.want || textWidth(got) > max(tc.width, 0) {
			t.Errorf("elideEnd(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}

// TestFitApprovalRow: the text (tool first) whole, or cut once at its end;
// the detail only after the whole text; never two cut pieces.
func TestFitApprovalRow(t *testing.T) {
	for _, tc := range []struct {
		text, detail string
		avail        int
		wantT, wantD string
	}{
		{"Write app.py", "Write needs approval", 40, "Write app.py", "Write needs approval"},
		{"Write app.py", "Write needs approval", 24, "Write app.py", "Write nee…"},
		{"Write app.py", "Write needs approval", 17, "Write app.py", ""},
		{"Write src/pkg/app.py", "Write needs approval", 14, "Write src/pkg…", ""},
		{"Bash: git add -A && git commit -m 'merge from main'", "", 30, "Bash: git add -A && git commi…", ""},
		{"Edit main.go", "", 4, "Edi…", ""},
	} {
		gotT, gotD := fitApprovalRow(tc.text, tc.detail, tc.avail)
		if gotT != tc.wantT || gotD != tc.wantD {
			t.Errorf("fitApprovalRow(%q, %q, %d) = %q, %q; want %q, %q", tc.text, tc.detail, tc.avail, gotT, gotD, tc.wantT, tc.wantD)
		}
		if strings.Count(gotT+gotD, "…") > 1 {
			t.Errorf("%q %q: cut twice", gotT, gotD)
		}
	}
}

func TestApprovalText(t *testing.T) {
	for _, tc := range []struct{ name, summary, want string }{
		{"Edit", "Edit main.go", "Edit main.go"},
		{"Bash", "git add -A\ngit commit", "Bash: git add -A …"},
		{"mcp__db__query", "", "mcp__db__query"},
		{"Bash", "Bash: ls", "Bash: ls"},
	} {
		if got := approvalText(tc.name, tc.summary); got != tc.want {
			t.Errorf("approvalText(%q, %q) = %q, want %q", tc.name, tc.summary, got, tc.want)
		}
	}
	if !repeats("the command needs approval for git add -A && git commit -m 'from main'", "Bash", "Bash: git add -A && git commit -m 'from main'") {
		t.Error("a reason naming the command does not repeat it")
	}
	if repeats("Write needs approval (default mode asks before a file changes)", "Write", "Write app.py") {
		t.Error("a reason that names only the tool repeats the summary")
	}
}
