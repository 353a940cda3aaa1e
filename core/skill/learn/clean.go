package learn

import (
	"strings"
	"unicode"
)

// cleanText keeps text a person reads as it is shown: control characters
// (but newline and tab) and invisible format characters (bidi overrides and
// isolates, zero-width ones, tags) are dropped, CRLF is LF, invalid UTF-8 is
// U+FFFD.
func cleanText(s string) string {
	s = strings.ToValidUTF8(strings.ReplaceAll(s, "\r\n", "\n"), "\uFFFD")
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, s)
}

// cleanLine is cleanText on one line: every run of white space (newlines
// too) is one space, cut to max runes.
func cleanLine(s string, max int) string {
	s = strings.Join(strings.Fields(cleanText(s)), " ")
	if r := []rune(s); len(r) > max {
		s = strings.TrimSpace(string(r[:max-1])) + "…"
	}
	return s
}

// fence is a Markdown code fence longer than any run of backticks in s, so s
// cannot close it.
func fence(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// quoted is s as Markdown block-quote lines ("> " before each).
func quoted(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight("> "+l, " ")
	}
	return strings.Join(lines, "\n")
}
