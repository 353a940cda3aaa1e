package tui

import (
	"fmt"
	"strings"
	"testing"
)

// benchDiff is a unified diff of n hunks, each one long line (200 columns)
// changed near column 150, with context around it.
func benchDiff(n int) string {
	var b strings.Builder
	b.WriteString("--- a/x.go\n+++ b/x.go\n")
	for i := 0; i < n; i++ {
		long := strings.Repeat("x", 145)
		fmt.Fprintf(&b, "@@ -%d,3 +%d,3 @@\n ctx %d\n-%sold%d tail\n+%snew%d tail\n ctx\n", i*4+1, i*4+1, i, long, i, long, i)
	}
	return b.String()
}

// BenchmarkDiffPaneLayout is the diff pane's work when its content or width
// changes (a frame with the same content reuses it): the word diff of every
// paired line and the wrap, for a 100-hunk diff at 80 columns.
func BenchmarkDiffPaneLayout(b *testing.B) {
	d := benchDiff(100)
	b.ReportAllocs()
	for b.Loop() {
		_ = layoutRows(diffLines(proseParts("Why it asks: Edit needs approval"), d, true, false), 77, true)
	}
}
