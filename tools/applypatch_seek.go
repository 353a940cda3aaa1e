package tools

import (
	"strings"
	"unicode"
)

// seekLines finds pattern as consecutive lines of lines at or after start and
// returns the index of its first line, or -1. It tries, as Codex's
// seek_sequence, ever looser comparisons, each over the whole range before the
// next: exact, then trailing whitespace ignored, then leading and trailing
// whitespace ignored, then also common Unicode punctuation (dashes, curly
// quotes, odd spaces) taken as its ASCII look-alike. With eof it first looks
// where the pattern would end the file. An empty pattern matches at start.
// A trailing "\r" of a file line (a CRLF file) is never part of the comparison.
func seekLines(lines, pattern []string, start int, eof bool) int {
	if len(pattern) == 0 {
		return start
	}
	if len(pattern) > len(lines) {
		return -1
	}
	from := start
	if eof {
		from = len(lines) - len(pattern)
	}
	passes := []func(string) string{
		func(s string) string { return s },
		func(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) },
		strings.TrimSpace,
		normalisePunctuation,
	}
	for _, norm := range passes {
		want := make([]string, len(pattern))
		for i, p := range pattern {
			want[i] = norm(p)
		}
		for i := from; i <= len(lines)-len(pattern); i++ {
			ok := true
			for j := range want {
				if norm(strings.TrimSuffix(lines[i+j], "\r")) != want[j] {
					ok = false
					break
				}
			}
			if ok {
				return i
			}
		}
	}
	if eof && from != start {
		return seekLines(lines, pattern, start, false)
	}
	return -1
}

// punctuationASCII maps typographic punctuation to the ASCII character a
// model usually types for it.
var punctuationASCII = strings.NewReplacer(
	"\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-", "\u2015", "-", "\u2212", "-",
	"\u2018", "'", "\u2019", "'", "\u201A", "'", "\u201B", "'",
	"\u201C", "\"", "\u201D", "\"", "\u201E", "\"", "\u201F", "\"",
	"\u00A0", " ", "\u2002", " ", "\u2003", " ", "\u2004", " ", "\u2005", " ", "\u2006", " ",
	"\u2007", " ", "\u2008", " ", "\u2009", " ", "\u200A", " ", "\u202F", " ", "\u205F", " ", "\u3000", " ",
)

// normalisePunctuation trims s and replaces typographic punctuation by ASCII.
func normalisePunctuation(s string) string {
	return punctuationASCII.Replace(strings.TrimSpace(s))
}
