package prompt

import (
	"path/filepath"
	"regexp"
	"strings"
)

// importRef matches an @path reference: an @ at the start of a line or after
// whitespace, then a path up to the next unescaped whitespace ("\ " is a space in
// the path).
var importRef = regexp.MustCompile(`(?:^|\s)@((?:[^\s\\]|\\ )+)`)

// findImports returns the @path references in a Markdown text, in order and
// without repeats, skipping those inside fenced code blocks and inline code
// spans. Escaped spaces are unescaped and trailing sentence punctuation dropped.
func findImports(content string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range importRef.FindAllStringSubmatch(stripCode(content), -1) {
		ref := strings.ReplaceAll(m[1], `\ `, " ")
		ref = strings.TrimRight(ref, ".,;:!?)]}>\"'`")
		if ref == "" || ref == "~" || ref == "~/" || seen[ref] {
			continue
		}
		seen[ref] = true
		out = append(out, ref)
	}
	return out
}

// resolveImport turns a reference into an absolute path: "~/x" under home, "/x" as
// it is, anything else relative to baseDir (the importing file's directory). ok is
// false for "~/x" when home is unknown.
func resolveImport(ref, baseDir, home string) (path string, ok bool) {
	switch {
	case strings.HasPrefix(ref, "~/"):
		if home == "" {
			return "", false
		}
		return filepath.Join(home, ref[2:]), true
	case filepath.IsAbs(ref):
		return filepath.Clean(ref), true
	default:
		return filepath.Join(baseDir, ref), true
	}
}

// stripCode returns s with fenced code blocks and inline code spans replaced by
// spaces (newlines kept), so that nothing inside them looks like an import.
// Fences follow CommonMark: up to three spaces of indentation, three or more
// backticks or tildes, closed by a run of the same character at least as long;
// an unclosed fence runs to the end. Indented code blocks are not recognised
// (they are hard to tell from list continuations, and rare in these files).
func stripCode(s string) string {
	b := []byte(s)
	var fenceChar byte
	fenceLen := 0
	for start := 0; start < len(b); {
		end := start
		for end < len(b) && b[end] != '\n' {
			end++
		}
		line := string(b[start:end])
		if fenceLen == 0 {
			if c, n, ok := fenceOpen(line); ok {
				fenceChar, fenceLen = c, n
				blank(b[start:end])
			}
		} else {
			if fenceClose(line, fenceChar, fenceLen) {
				fenceLen = 0
			}
			blank(b[start:end])
		}
		start = end + 1
	}
	stripSpans(b)
	return string(b)
}

// fenceOpen reports whether line opens a fenced code block, and with which
// character and run length.
func fenceOpen(line string) (byte, int, bool) {
	rest, ok := trimIndent(line)
	if !ok || len(rest) < 3 || (rest[0] != '`' && rest[0] != '~') {
		return 0, 0, false
	}
	c := rest[0]
	n := runLen(rest, 0, c)
	if n < 3 {
		return 0, 0, false
	}
	if c == '`' && strings.IndexByte(rest[n:], '`') >= 0 {
		return 0, 0, false // "```x```" is an inline span, not a fence
	}
	return c, n, true
}

// fenceClose reports whether line closes a fence of c repeated at least n times.
func fenceClose(line string, c byte, n int) bool {
	rest, ok := trimIndent(line)
	if !ok {
		return false
	}
	m := runLen(rest, 0, c)
	return m >= n && strings.TrimSpace(rest[m:]) == ""
}

// trimIndent drops up to three leading spaces; ok is false with four or more.
func trimIndent(line string) (string, bool) {
	line = strings.TrimRight(line, "\r")
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	return line[i:], i <= 3
}

// runLen is the length of the run of c starting at s[i].
func runLen(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// stripSpans blanks inline code spans in b: a run of n backticks up to the next
// run of exactly n, not across a blank line. A run without a partner is literal,
// and so is a backtick escaped with a backslash.
func stripSpans(b []byte) {
	s := string(b)
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		n := runLen(s, i, '`')
		if i > 0 && s[i-1] == '\\' {
			i += n
			continue
		}
		end := closingRun(s, i+n, n)
		if end < 0 {
			i += n
			continue
		}
		blank(b[i:end])
		i = end
	}
}

// closingRun returns the index just past the first run of exactly n backticks at
// or after from, or -1 when there is none before a blank line or the end.
func closingRun(s string, from, n int) int {
	for j := from; j < len(s); {
		switch {
		case s[j] == '`':
			m := runLen(s, j, '`')
			if m == n {
				return j + m
			}
			j += m
		case s[j] == '\n' && strings.TrimSpace(lineAt(s, j+1)) == "":
			return -1
		default:
			j++
		}
	}
	return -1
}

// lineAt returns the line of s starting at i (without its newline).
func lineAt(s string, i int) string {
	if i >= len(s) {
		return "x" // the end of the text is not a blank line
	}
	rest := s[i:]
	if k := strings.IndexByte(rest, '\n'); k >= 0 {
		return rest[:k]
	}
	return rest
}

// blank replaces every byte of b except newlines with a space.
func blank(b []byte) {
	for i := range b {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
}
