package markdown

import (
	"strings"
)

// This file classifies markdown source lines. The rules follow CommonMark
// loosely: enough for what models write, forgiving where models are sloppy
// (list nesting by any extra indentation).

func isBlank(l string) bool { return strings.TrimLeft(l, " \t") == "" }

// indentOf returns the number of leading spaces (a tab counts as tabWidth).
func indentOf(l string) int {
	n := 0
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case ' ':
			n++
		case '\t':
			n += tabWidth
		default:
			return n
		}
	}
	return n
}

// stripIndent removes up to n leading spaces.
func stripIndent(l string, n int) string {
	i := 0
	for i < len(l) && i < n && l[i] == ' ' {
		i++
	}
	return l[i:]
}

// fenceOpen recognises an opening code fence: up to 3 spaces, then 3 or
// more backticks or tildes, then the info string.
func fenceOpen(l string) (ch byte, n, indent int, info string, ok bool) {
	indent = indentOf(l)
	if indent > 3 {
		return 0, 0, 0, "", false
	}
	t := l[indent:]
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return 0, 0, 0, "", false
	}
	ch = t[0]
	n = runLen(t, 0, ch)
	if n < 3 {
		return 0, 0, 0, "", false
	}
	info = strings.TrimSpace(t[n:])
	if ch == '`' && strings.IndexByte(info, '`') >= 0 {
		return 0, 0, 0, "", false
	}
	return ch, n, indent, info, true
}

// isFenceClose reports whether l closes a fence opened with n times ch.
func isFenceClose(l string, ch byte, n int) bool {
	ind := indentOf(l)
	if ind > 3 {
		return false
	}
	t := strings.TrimRight(l[ind:], " \t")
	return len(t) >= n && runLen(t, 0, ch) == len(t)
}

// fenceLang returns the language of an info string: its first word,
// lowercased, without braces or a leading dot ("{.python}").
func fenceLang(info string) string {
	if i := strings.IndexAny(info, " \t,"); i >= 0 {
		info = info[:i]
	}
	info = strings.Trim(info, "{}")
	info = strings.TrimPrefix(info, ".")
	return strings.ToLower(info)
}

// atxHeading recognises "# Heading" (levels 1-6; closing hashes dropped).
func atxHeading(l string) (level int, text string, ok bool) {
	ind := indentOf(l)
	if ind > 3 {
		return 0, "", false
	}
	t := l[ind:]
	level = runLen(t, 0, '#')
	if level < 1 || level > 6 {
		return 0, "", false
	}
	t = t[level:]
	if t != "" && t[0] != ' ' && t[0] != '\t' {
		return 0, "", false
	}
	t = strings.TrimSpace(t)
	if s := strings.TrimRight(t, "#"); s != t && (s == "" || strings.HasSuffix(s, " ")) {
		t = strings.TrimSpace(s)
	}
	return level, t, true
}

// isRule recognises a thematic break: three or more '-', '*' or '_' alone.
func isRule(l string) bool {
	if indentOf(l) > 3 {
		return false
	}
	var ch byte
	n := 0
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case c == ' ' || c == '\t':
		case ch == 0 && (c == '-' || c == '*' || c == '_'):
			ch = c
			n++
		case c == ch:
			n++
		default:
			return false
		}
	}
	return n >= 3
}

// setextLevel recognises a setext underline: "===" (1) or "---" (2).
func setextLevel(l string) int {
	if indentOf(l) > 3 {
		return 0
	}
	t := strings.TrimSpace(l)
	switch {
	case t == "":
		return 0
	case runLen(t, 0, '=') == len(t):
		return 1
	case runLen(t, 0, '-') == len(t):
		return 2
	}
	return 0
}

func isQuote(l string) bool {
	ind := indentOf(l)
	return ind <= 3 && ind < len(l) && l[ind] == '>'
}

// stripQuote removes the quote marker and one following space.
func stripQuote(l string) string {
	t := l[indentOf(l)+1:]
	return strings.TrimPrefix(t, " ")
}

// marker is a list item marker.
type marker struct {
	indent  int    // spaces before the marker
	content int    // column where the item's content starts
	text    string // "-", "*", "+", "1." or "1)"
	ordered bool
}

// listMarker recognises "- item", "* item", "+ item", "1. item", "1) item".
func listMarker(l string) (marker, bool) {
	ind := indentOf(l)
	if ind >= len(l) || strings.IndexByte(l[:ind], '\t') >= 0 {
		return marker{}, false
	}
	t := l[ind:]
	m := marker{indent: ind}
	switch t[0] {
	case '-', '*', '+':
		m.text = t[:1]
	default:
		d := 0
		for d < len(t) && d < 9 && t[d] >= '0' && t[d] <= '9' {
			d++
		}
		if d == 0 || d >= len(t) || (t[d] != '.' && t[d] != ')') {
			return marker{}, false
		}
		m.text, m.ordered = t[:d+1], true
	}
	rest := t[len(m.text):]
	if rest != "" && rest[0] != ' ' {
		return marker{}, false
	}
	sp := runLen(rest, 0, ' ')
	if sp > 4 || sp == len(rest) { // indented code after marker, or empty item
		sp = min(sp, 1)
	}
	m.content = ind + len(m.text) + sp
	return m, true
}

// listItem collects the lines of the item starting at lines[i]: the first
// line's content, then lines indented past the marker (nested blocks), blank
// lines followed by such lines, and lazy continuation lines of a paragraph.
// It returns the index after the item and the item's lines with their
// indentation removed.
func listItem(lines []string, i int, m marker) (int, []string) {
	item := []string{strings.TrimRight(safeSlice(lines[i], m.content), " ")}
	j := i + 1
	for j < len(lines) {
		l := lines[j]
		if isBlank(l) {
			k := j + 1
			for k < len(lines) && isBlank(lines[k]) {
				k++
			}
			if k < len(lines) && indentOf(lines[k]) > m.indent {
				for ; j < k; j++ {
					item = append(item, "")
				}
				continue
			}
			break
		}
		ind := indentOf(l)
		if ind > m.indent {
			item = append(item, stripIndent(l, m.content))
			j++
			continue
		}
		if startsBlock(l) || isBlank(item[len(item)-1]) {
			break
		}
		item = append(item, l) // lazy continuation
		j++
	}
	return j, item
}

func safeSlice(s string, from int) string {
	if from >= len(s) {
		return ""
	}
	return s[from:]
}

// tableRows recognises a pipe table starting at lines[i]: a header row, a
// delimiter row (|---|:--:|) and body rows. It returns the end index.
func tableRows(lines []string, i int) (int, bool) {
	if i+1 >= len(lines) || !isTableLine(lines[i]) || !isDelimiterRow(lines[i+1]) {
		return 0, false
	}
	j := i + 2
	for j < len(lines) && isTableLine(lines[j]) {
		j++
	}
	return j, true
}

func isTableLine(l string) bool {
	t := strings.TrimSpace(l)
	return len(t) > 1 && t[0] == '|'
}

func isDelimiterRow(l string) bool {
	t := strings.TrimSpace(l)
	if !isTableLine(t) || !strings.Contains(t, "-") {
		return false
	}
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '|', '-', ':', ' ':
		default:
			return false
		}
	}
	return true
}

// startsBlock reports whether l begins a block that interrupts a paragraph.
func startsBlock(l string) bool {
	if _, _, _, _, ok := fenceOpen(l); ok {
		return true
	}
	if _, _, ok := atxHeading(l); ok {
		return true
	}
	if isRule(l) || isQuote(l) {
		return true
	}
	if m, ok := listMarker(l); ok && m.content < len(l) {
		return true
	}
	return false
}

// joinPara joins paragraph lines with single spaces.
func joinPara(lines []string) string {
	if len(lines) == 1 {
		return strings.TrimSpace(lines[0])
	}
	var b strings.Builder
	for k, l := range lines {
		if k > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strings.TrimSpace(l))
	}
	return b.String()
}
