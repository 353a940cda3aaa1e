package tools

import (
	"errors"
	"fmt"
	"strings"
)

// applyEditLoose is applyEdit with the indentation fallback: when old_string
// is not found exactly, a match that ignores how the lines are indented
// (runs of tabs and spaces at line starts taken as equal) is used if there
// is exactly one, and new_string is re-indented to the file's style; note
// then says so, for the result. When that fails too, the error (errors.Is
// errNotFound) quotes the file's lines closest to old_string, with their line
// numbers.
func applyEditLoose(content, oldString, newString string, replaceAll bool) (updated string, n int, note string, err error) {
	updated, n, err = applyEdit(content, oldString, newString, replaceAll)
	if !errors.Is(err, errNotFound) {
		return updated, n, "", err
	}
	if out, style, ok := indentMatch(content, oldString, newString); ok {
		return out, 1, fmt.Sprintf("old_string matched only with its indentation ignored (the file indents with %s); new_string was re-indented to match.", style), nil
	}
	if hint := closestLines(content, oldString); hint != "" {
		return "", 0, "", fmt.Errorf("%w\n\n%s", errNotFound, hint)
	}
	return "", 0, "", errNotFound
}

// indentMatch finds the one place where oldString's lines are the file's
// lines but for their leading tabs and spaces, and replaces it by newString
// re-indented (reindent). It is false when there is no such place, more than
// one, or oldString has no line with text.
func indentMatch(content, oldString, newString string) (string, string, bool) {
	bom := ""
	if strings.HasPrefix(content, utf8BOM) {
		bom, content = utf8BOM, content[len(utf8BOM):]
	}
	old := strings.Split(toLF(strings.TrimPrefix(oldString, utf8BOM)), "\n")
	wholeLast := old[len(old)-1] == ""
	if wholeLast {
		old = old[:len(old)-1]
	}
	if len(old) == 0 || strings.TrimSpace(strings.Join(old, "")) == "" {
		return "", "", false
	}
	lines := strings.SplitAfter(content, "\n")
	offsets := make([]int, len(lines)+1)
	for i, l := range lines {
		offsets[i+1] = offsets[i] + len(l)
	}
	found := -1
	for i := 0; i+len(old) <= len(lines); i++ {
		ok := true
		for j, o := range old {
			if strings.TrimLeft(bareLine(lines[i+j]), " \t") != strings.TrimLeft(o, " \t") {
				ok = false
				break
			}
		}
		if ok {
			if found >= 0 {
				return "", "", false // not unique
			}
			found = i
		}
	}
	if found < 0 {
		return "", "", false
	}
	start, end := offsets[found], offsets[found+len(old)]
	if !wholeLast {
		last := lines[found+len(old)-1]
		end -= len(last) - len(bareLine(last))
	}
	var fileIndents, oldIndents []string
	for j, o := range old {
		fileIndents = append(fileIndents, leadingIndent(bareLine(lines[found+j])))
		oldIndents = append(oldIndents, leadingIndent(o))
	}
	repl, style := reindent(toLF(newString), oldIndents, fileIndents)
	if usesCRLF(content) {
		repl = toCRLF(repl)
	}
	return bom + content[:start] + repl + content[end:], style, true
}

// reindent rewrites the indentation of every line of s from old_string's
// style to the file's: an indentation that one of old_string's lines has
// becomes the matched file line's; any other is counted in levels of
// old_string's unit (a tab, or its smallest run of spaces) and written in the
// file's unit. It returns the text and a name of the file's style.
func reindent(s string, oldIndents, fileIndents []string) (string, string) {
	mapped := map[string]string{}
	for i, o := range oldIndents {
		if _, ok := mapped[o]; !ok {
			mapped[o] = fileIndents[i]
		}
	}
	oldUnit, fileUnit := indentUnit(oldIndents), indentUnit(fileIndents)
	style := "spaces"
	if fileUnit == "\t" {
		style = "tabs"
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		ind := leadingIndent(l)
		if ind == "" {
			continue
		}
		if m, ok := mapped[ind]; ok {
			lines[i] = m + l[len(ind):]
			continue
		}
		levels := strings.Count(ind, "\t")
		spaces := strings.Count(ind, " ")
		if oldUnit != "\t" {
			levels += spaces / len(oldUnit)
			spaces %= len(oldUnit)
		} else {
			levels, spaces = levels+spaces/4, spaces%4
		}
		lines[i] = strings.Repeat(fileUnit, levels) + strings.Repeat(" ", spaces) + l[len(ind):]
	}
	return strings.Join(lines, "\n"), style
}

// indentUnit is "\t" when some indentation of indents starts with a tab, else
// the smallest non-empty run of spaces among them (four when there is none).
func indentUnit(indents []string) string {
	unit := ""
	for _, ind := range indents {
		if strings.HasPrefix(ind, "\t") {
			return "\t"
		}
		if ind != "" && (unit == "" || len(ind) < len(unit)) {
			unit = ind
		}
	}
	if unit == "" {
		unit = "    "
	}
	return unit
}

// leadingIndent is the run of tabs and spaces that starts s.
func leadingIndent(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}

// bareLine is a line of SplitAfter without its "\n" or "\r\n".
func bareLine(l string) string {
	return strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r")
}

// closestLines quotes the lines of content most like oldString's first line
// with text (by bigram similarity of the trimmed lines; at least one half),
// as many as oldString has (six at most), numbered as Read numbers them; ""
// when no line is close.
func closestLines(content, oldString string) string {
	var first string
	old := strings.Split(toLF(oldString), "\n")
	for _, l := range old {
		if strings.TrimSpace(l) != "" {
			first = strings.TrimSpace(l)
			break
		}
	}
	if first == "" {
		return ""
	}
	lines := strings.Split(toLF(strings.TrimPrefix(content, utf8BOM)), "\n")
	best, bestScore := -1, 0.5
	for i, l := range lines {
		if s := similarity(first, strings.TrimSpace(l)); s > bestScore {
			best, bestScore = i, s
		}
	}
	if best < 0 {
		return ""
	}
	n := min(max(len(old), 1), 6, len(lines)-best)
	var b strings.Builder
	fmt.Fprintf(&b, "The closest match in the file starts at line %d:\n", best+1)
	for i := best; i < best+n; i++ {
		fmt.Fprintf(&b, "%6d\t%s\n", i+1, lines[i])
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// similarity is the Dice coefficient of the two strings' byte bigrams, from 0
// (nothing shared) to 1 (the same bigrams); 1 for two equal strings.
func similarity(a, b string) float64 {
	if a == b {
		return 1
	}
	if len(a) < 2 || len(b) < 2 {
		return 0
	}
	grams := map[string]int{}
	for i := 0; i+1 < len(a); i++ {
		grams[a[i:i+2]]++
	}
	shared := 0
	for i := 0; i+1 < len(b); i++ {
		if grams[b[i:i+2]] > 0 {
			grams[b[i:i+2]]--
			shared++
		}
	}
	return 2 * float64(shared) / float64(len(a)+len(b)-2)
}
