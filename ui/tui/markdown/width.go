package markdown

import (
	"strings"

	"pincer/ui/termtext"
	"pincer/ui/tui/internal/cells"
)

// tabWidth is the distance between tab stops when tabs are expanded.
const tabWidth = 4

// StringWidth returns the width of s in terminal cells, as the workbench
// draws it (cells.Next: uniseg's grapheme clusters, with a halfwidth kana
// and its sound mark drawn composed, two cells): CJK ideographs and emoji
// take two cells, combining marks none.
func StringWidth(s string) int { return cells.Width(s) }

// Sanitize makes text safe to draw: it is termtext.Clean, the one sanitizer of
// every human-readable output of pincer (escape sequences, C0 controls but LF
// and TAB, C1 controls removed; CR dropped, so CRLF becomes LF).
func Sanitize(s string) string { return termtext.Clean(s) }

// expandTabs replaces each tab in a single line with spaces up to the next
// tab stop, counting columns in cells.
func expandTabs(line string) string {
	if strings.IndexByte(line, '\t') < 0 {
		return line
	}
	var b strings.Builder
	col := 0
	for line != "" {
		j := strings.IndexByte(line, '\t')
		if j < 0 {
			b.WriteString(line)
			break
		}
		b.WriteString(line[:j])
		col += StringWidth(line[:j])
		n := tabWidth - col%tabWidth
		b.WriteString(strings.Repeat(" ", n))
		col += n
		line = line[j+1:]
	}
	return b.String()
}
