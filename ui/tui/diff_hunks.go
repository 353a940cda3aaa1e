package tui

import (
	"strconv"
	"strings"
)

// diffLine is what a line of a unified diff is, read with the counts of its
// hunk header ("@@ -a,b +c,d @@"), so that a later file's "--- a/x" and
// "+++ b/x" labels in a multi-file diff (apply_patch's) are labels, not a
// removed and an added line.
type diffLine int

const (
	diffOther   diffLine = iota // outside any hunk: "diff --git", "index ..."
	diffLabel                   // a file label: "--- a/x" or "+++ b/x" before a hunk
	diffHunk                    // a hunk header: "@@ ... @@"
	diffContext                 // " x" in a hunk
	diffRemoved                 // "-x" in a hunk
	diffAdded                   // "+x" in a hunk
	diffNote                    // "\ No newline at end of file"
)

// classifyDiff returns the kind of each of lines. A hunk ends when its
// header's old and new line counts are used up; a header without counts
// ("@@" alone, as some tools write) keeps its hunk open until a "--- " line
// followed by a "+++ " line, the next file's labels.
func classifyDiff(lines []string) []diffLine {
	kinds := make([]diffLine, len(lines))
	inHunk, counted := false, false
	oldLeft, newLeft := 0, 0
	for i, l := range lines {
		nextLabel := i+1 < len(lines) && strings.HasPrefix(l, "--- ") && strings.HasPrefix(lines[i+1], "+++ ")
		switch {
		case strings.HasPrefix(l, "@@"):
			kinds[i] = diffHunk
			oldLeft, newLeft, counted = hunkCounts(l)
			inHunk = !counted || oldLeft > 0 || newLeft > 0
			continue
		case inHunk && !counted && nextLabel:
			inHunk = false
		case inHunk && strings.HasPrefix(l, `\`):
			kinds[i] = diffNote
			continue
		}
		if !inHunk {
			if strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ ") {
				kinds[i] = diffLabel
			}
			continue
		}
		switch {
		case strings.HasPrefix(l, "-"):
			kinds[i] = diffRemoved
			oldLeft--
		case strings.HasPrefix(l, "+"):
			kinds[i] = diffAdded
			newLeft--
		default:
			kinds[i] = diffContext
			oldLeft--
			newLeft--
		}
		if counted && oldLeft <= 0 && newLeft <= 0 {
			inHunk = false
		}
	}
	return kinds
}

// hunkCounts reads the old and new line counts of a hunk header
// ("@@ -3,4 +3,5 @@", a missing count being 1); ok is false when the header
// has none ("@@").
func hunkCounts(h string) (oldN, newN int, ok bool) {
	f := strings.Fields(h)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return 0, 0, false
	}
	count := func(r string) (int, bool) {
		_, n, found := strings.Cut(r[1:], ",")
		if !found {
			if _, err := strconv.Atoi(r[1:]); err != nil {
				return 0, false
			}
			return 1, true
		}
		v, err := strconv.Atoi(n)
		return v, err == nil
	}
	o, ok1 := count(f[1])
	n, ok2 := count(f[2])
	return o, n, ok1 && ok2
}

// diffFiles returns the files a unified diff changes, in order: each
// file's "+++" label, or its "---" label when that is /dev/null (a deleted
// file).
func diffFiles(lines []string, kinds []diffLine) []string {
	var files []string
	for i, l := range lines {
		if kinds[i] != diffLabel || !strings.HasPrefix(l, "--- ") {
			continue
		}
		name := strings.TrimSpace(l[4:])
		if i+1 < len(lines) && kinds[i+1] == diffLabel && strings.HasPrefix(lines[i+1], "+++ ") {
			if n := strings.TrimSpace(lines[i+1][4:]); n != "/dev/null" {
				name = n
			}
		}
		if name != "/dev/null" && name != "" {
			files = append(files, name)
		}
	}
	if len(files) == 0 { // a "+++" label alone
		for i, l := range lines {
			if kinds[i] == diffLabel && strings.HasPrefix(l, "+++ ") {
				if n := strings.TrimSpace(l[4:]); n != "/dev/null" {
					files = append(files, n)
				}
			}
		}
	}
	return files
}
