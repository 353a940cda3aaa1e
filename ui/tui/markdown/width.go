package markdown

import (
	"strings"
	"unicode/utf8"

	"pincer/ui/tui/internal/cells"
)

// tabWidth is the distance between tab stops when tabs are expanded.
const tabWidth = 4

// StringWidth returns the width of s in terminal cells, as the workbench
// draws it (cells.Next: uniseg's grapheme clusters, with a halfwidth kana
// and its sound mark drawn composed, two cells): CJK ideographs and emoji
// take two cells, combining marks none.
func StringWidth(s string) int { return cells.Width(s) }

// needsSanitize reports whether s holds bytes that would corrupt the
// terminal or the width arithmetic: C0 controls other than LF and TAB, CR,
// DEL, or C1 controls.
func needsSanitize(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
			return true
		}
		if c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f {
			return true
		}
	}
	return false
}

// Sanitize makes text safe to draw: ANSI escape sequences (CSI, OSC and
// two-byte escapes) are removed, CRLF becomes LF, a lone CR and other control
// characters are dropped. LF and TAB are kept. Text without such bytes is
// returned unchanged without allocating.
func Sanitize(s string) string {
	if !needsSanitize(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			i = skipEscape(s, i)
			continue
		case c == '\n' || c == '\t':
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			// dropped (CR, BS, BEL, ...)
		case c >= 0x80:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r >= 0x80 && r <= 0x9f {
				i += n
				continue
			}
			b.WriteString(s[i : i+n])
			i += n
			continue
		default:
			b.WriteByte(c)
		}
		i++
	}
	return b.String()
}

// skipEscape returns the index just past the escape sequence starting at
// s[i] == ESC.
func skipEscape(s string, i int) int {
	i++
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[': // CSI: parameters and intermediates, then a final byte 0x40-0x7e
		i++
		for i < len(s) && (s[i] < 0x40 || s[i] > 0x7e) {
			if s[i] == '\n' {
				return i
			}
			i++
		}
		return min(i+1, len(s))
	case ']', 'P', '_', '^': // OSC, DCS, APC, PM: up to BEL or ST (ESC \)
		i++
		for i < len(s) {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			if s[i] == '\n' {
				return i
			}
			i++
		}
		return i
	}
	return i + 1 // two-byte escape
}

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
