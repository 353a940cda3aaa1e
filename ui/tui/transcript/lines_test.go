package transcript

import (
	"fmt"
	"strings"
	"testing"
)

// TestToolOutputNoteCountsTheWholeOutput (Found 13): a tool output that was
// cut before it reached the view (a 3000-line Bash output spilled to a file
// arrives as 1817 lines) is noted with the lines it had, not the lines of
// the cut: "(200 of 3000 shown)".
func TestToolOutputNoteCountsTheWholeOutput(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 1817; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	cases := []struct {
		lines int
		want  string
	}{
		{3000, "… 2800 more lines (200 of 3000 shown)"},
		{0, "… 1617 more lines (200 of 1817 shown)"}, // not cut on the way: the text's own count
	}
	for _, c := range cases {
		v := New(dark())
		v.Upsert(Block{ID: "t", Kind: KindTool, Title: "Bash seq", Status: StatusDone, Text: b.String(), OutputLines: c.lines, Done: true})
		s := newScreen(t, 80, 220)
		drawView(v, s)
		y := findRow(s, "more lines")
		if y < 0 || !strings.Contains(rows(s)[y], c.want) {
			t.Errorf("OutputLines %d: no note %q:\n%s", c.lines, c.want, screenText(s))
		}
	}
}
