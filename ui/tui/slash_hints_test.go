package tui

import (
	"fmt"
	"strings"
	"testing"

	"pincer/core/app"
)

// TestSlashHints: while a command is typed the key bar shows every name it
// starts, or the one it names with its description.
func TestSlashHints(t *testing.T) {
	list := []app.Command{{Name: "/release", Description: "cut a release", Origin: "project"}, {Name: "/review"}}
	for _, tc := range []struct {
		text string
		want string // the hints joined by " | "; a prefix is enough for one described
	}{
		{"/re", "/resume | /rewind | /release | /review"},
		{"/res", "/resume continue another session"},
		{"/rel", "/release — cut a release (project)"},
		{"/zz", ""},
	} {
		got := strings.Join(slashHints(tc.text, list), " | ")
		if !strings.HasPrefix(got, tc.want) || (tc.want == "" && got != "") {
			t.Errorf("slashHints(%q) = %q, want %q…", tc.text, got, tc.want)
		}
	}
	if got := fmt.Sprint(slashHints("/re", list)); strings.Contains(got, "continue another") {
		t.Errorf("several matches are described: %s", got)
	}
}
