package tools

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Grep output limits.
const (
	// GrepMaxLineChars is the length (in characters) past which a line shown in
	// content mode is cut.
	GrepMaxLineChars = 500
	// GrepMaxOutputChars caps the whole output; the rest is dropped with a note.
	GrepMaxOutputChars = 30000
)

// grepLine is one line of a search result.
type grepLine struct {
	num   int    // 1-based
	text  string // without the line break
	match bool   // false for a context line
}

// grepFile is what a backend found in one file that has at least one match.
// lines is filled in content mode only; matches counts matching lines.
type grepFile struct {
	path    string // absolute
	lines   []grepLine
	matches int
}

// formatGrep renders backend results for q's output mode: the shared formatter
// that makes both backends' output identical.
func formatGrep(env *Env, q *grepQuery, files []grepFile, headLimit int) string {
	if len(files) == 0 {
		return "No matches found"
	}
	var entries []string
	var footer string
	switch q.mode {
	case GrepFilesWithMatches:
		hits := make([]fileHit, len(files))
		for i, f := range files {
			hits[i] = fileHit{path: f.path}
			if fi, err := q.ws.Stat(f.path); err == nil {
				hits[i].modTime = fi.ModTime()
			}
		}
		sortNewestFirst(hits)
		for _, h := range hits {
			entries = append(entries, displayPath(env, h.path))
		}
	case GrepCount:
		sortByPath(files)
		total := 0
		for _, f := range files {
			entries = append(entries, fmt.Sprintf("%s:%d", displayPath(env, f.path), f.matches))
			total += f.matches
		}
		footer = fmt.Sprintf("\nFound %d matching lines in %d files.", total, len(files))
	case GrepContent:
		sortByPath(files)
		entries = contentLines(env, q, files)
	}

	var b strings.Builder
	if q.mode == GrepFilesWithMatches {
		fmt.Fprintf(&b, "Found %d %s\n", len(entries), plural(len(entries), "file", "files"))
	}
	shown := entries
	if headLimit > 0 && len(entries) > headLimit {
		shown = entries[:headLimit]
	}
	for i, e := range shown {
		if b.Len()+len(e) > GrepMaxOutputChars {
			fmt.Fprintf(&b, "\n(Output truncated at %d characters: showing %d of %d lines. Narrow the search with path, glob or type, or use head_limit.)", GrepMaxOutputChars, i, len(entries))
			return b.String()
		}
		b.WriteString(e + "\n")
	}
	if len(shown) < len(entries) {
		fmt.Fprintf(&b, "\n(Results truncated by head_limit: showing first %d of %d.)\n", len(shown), len(entries))
	}
	b.WriteString(footer)
	return strings.TrimRight(b.String(), "\n")
}

// contentLines renders content mode as ripgrep does: "path:N:text" for matching
// lines, "path-N-text" for context lines (without N when line numbers are off),
// and "--" between groups of lines that are not adjacent when context is on.
func contentLines(env *Env, q *grepQuery, files []grepFile) []string {
	var out []string
	withContext := q.before > 0 || q.after > 0
	for fi, f := range files {
		p := displayPath(env, f.path)
		lines := mergeLines(f.lines)
		for i, l := range lines {
			if withContext && (i > 0 && l.num > lines[i-1].num+1 || i == 0 && fi > 0) {
				out = append(out, "--")
			}
			sep := "-"
			if l.match {
				sep = ":"
			}
			text := cutChars(l.text, GrepMaxLineChars)
			if q.lineNums {
				out = append(out, fmt.Sprintf("%s%s%d%s%s", p, sep, l.num, sep, text))
			} else {
				out = append(out, p+sep+text)
			}
		}
	}
	return out
}

// mergeLines sorts lines by number and merges duplicates (a match wins over
// context for the same line).
func mergeLines(lines []grepLine) []grepLine {
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].num < lines[j].num })
	out := lines[:0:0]
	for _, l := range lines {
		if n := len(out); n > 0 && out[n-1].num == l.num {
			out[n-1].match = out[n-1].match || l.match
			continue
		}
		out = append(out, l)
	}
	return out
}

// displayLine prepares raw line bytes for output: without its line break or a
// trailing CR, as valid UTF-8.
func displayLine(raw string) string {
	raw = strings.TrimSuffix(raw, "\n")
	raw = strings.TrimSuffix(raw, "\r")
	return strings.ToValidUTF8(raw, "\uFFFD")
}

// cutChars cuts s at max characters, adding lineTruncatedMarker.
func cutChars(s string, max int) string {
	if len(s) <= max || utf8.RuneCountInString(s) <= max {
		return s
	}
	return string([]rune(s)[:max]) + lineTruncatedMarker
}

func sortByPath(files []grepFile) {
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
