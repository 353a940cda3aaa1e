package tools

import (
	"fmt"
	"strings"
	"time"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// DiffContext is the number of unchanged lines shown around each change, as
// `diff -u` does.
const DiffContext = 3

// diffTimeout bounds go-diff's search: past it the diff is coarser (whole
// blocks replaced), never wrong. One second, go-diff's default, so a reply of
// many Edits of big files cannot hold the agent for long; what an approval binds
// is the change itself (fileChange.fingerprint), not its diff text.
const diffTimeout = time.Second

const noNewline = "\\ No newline at end of file\n"

// diffOp is one line of a line diff: ' ' kept, '-' removed, '+' added. text
// includes the line's "\n" unless it is the last line of a text without one.
type diffOp struct {
	kind byte
	text string
}

// UnifiedDiff returns the unified diff that turns oldText into newText, in the
// format of GNU `diff -u` without timestamps: "--- oldLabel", "+++ newLabel",
// hunks "@@ -l,n +l,n @@" with DiffContext lines of context, hunks closer than
// twice that merged, and "\ No newline at end of file" after a last line that
// lacks one. It returns "" when the texts are equal. Labels are used as given
// (callers pass "a/path" and "b/path", or "/dev/null" for a created file).
//
// The work is bounded, as a diff shown before an approval must be: texts of more
// than MaxDiffLines lines or MaxDiffInput bytes together are not diffed (the
// diff is the two header lines and one "\ not shown: ..." line giving the sizes),
// and a diff longer than MaxDiffBytes is cut at a line end, with a "\ cut: ..."
// line after it.
func UnifiedDiff(oldLabel, newLabel, oldText, newText string) string {
	if oldText == newText {
		return ""
	}
	header := "--- " + oldLabel + "\n+++ " + newLabel + "\n"
	oldLines, newLines := countLines(oldText), countLines(newText)
	if oldLines+newLines > MaxDiffLines || len(oldText)+len(newText) > MaxDiffInput {
		return header + fmt.Sprintf("\\ not shown: too large to diff (%d lines, %d bytes -> %d lines, %d bytes)\n",
			oldLines, len(oldText), newLines, len(newText))
	}
	ops := lineDiff(oldText, newText)
	var b strings.Builder
	b.WriteString(header)
	writeHunks(&b, ops)
	out := b.String()
	if len(out) > MaxDiffBytes {
		cut := strings.LastIndexByte(out[:MaxDiffBytes], '\n') + 1
		out = out[:cut] + fmt.Sprintf("\\ cut: the diff is %d bytes; the first %d are shown\n", len(out), cut)
	}
	return out
}

// The bounds of UnifiedDiff: MaxDiffLines lines and MaxDiffInput bytes of the
// two texts together, MaxDiffBytes bytes of diff.
const (
	MaxDiffLines = 200_000
	MaxDiffInput = 32 << 20
	MaxDiffBytes = 1 << 20
)

// lineDiff diffs two texts line by line with go-diff's line mode
// (DiffLinesToChars, DiffMain, DiffCharsToLines).
func lineDiff(oldText, newText string) (ops []diffOp) {
	defer func() {
		// go-diff encodes each distinct line as one rune and panics past about a
		// million distinct lines; show such a change as a whole replacement.
		if recover() != nil {
			ops = appendLines(appendLines(nil, '-', oldText), '+', newText)
		}
	}()
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = diffTimeout
	a, b, lines := dmp.DiffLinesToChars(oldText, newText)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(a, b, false), lines)
	for _, d := range diffs {
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			ops = appendLines(ops, ' ', d.Text)
		case diffmatchpatch.DiffDelete:
			ops = appendLines(ops, '-', d.Text)
		case diffmatchpatch.DiffInsert:
			ops = appendLines(ops, '+', d.Text)
		}
	}
	return ops
}

// appendLines splits text after each "\n" and appends one op per line.
func appendLines(ops []diffOp, kind byte, text string) []diffOp {
	for text != "" {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			return append(ops, diffOp{kind, text})
		}
		ops = append(ops, diffOp{kind, text[:i+1]})
		text = text[i+1:]
	}
	return ops
}

// writeHunks groups ops into hunks and writes them.
func writeHunks(b *strings.Builder, ops []diffOp) {
	// oldBefore[i] and newBefore[i] count the old and new lines in ops[:i].
	oldBefore := make([]int, len(ops)+1)
	newBefore := make([]int, len(ops)+1)
	for i, op := range ops {
		oldBefore[i+1], newBefore[i+1] = oldBefore[i], newBefore[i]
		if op.kind != '+' {
			oldBefore[i+1]++
		}
		if op.kind != '-' {
			newBefore[i+1]++
		}
	}
	i := 0
	for {
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			return
		}
		start := max(i-DiffContext, 0)
		// lastChange is the index of the last changed line of this hunk.
		lastChange := i
		for j := i + 1; j < len(ops); j++ {
			if ops[j].kind == ' ' {
				continue
			}
			if j-lastChange-1 > 2*DiffContext {
				break
			}
			lastChange = j
		}
		end := min(lastChange+1+DiffContext, len(ops))
		writeHunk(b, ops[start:end], oldBefore[start], oldBefore[end], newBefore[start], newBefore[end])
		i = end
	}
}

// writeHunk writes one hunk whose lines cover old lines (oldFrom, oldTo] and new
// lines (newFrom, newTo].
func writeHunk(b *strings.Builder, ops []diffOp, oldFrom, oldTo, newFrom, newTo int) {
	fmt.Fprintf(b, "@@ -%s +%s @@\n", hunkRange(oldFrom, oldTo-oldFrom), hunkRange(newFrom, newTo-newFrom))
	for _, op := range ops {
		b.WriteByte(op.kind)
		b.WriteString(op.text)
		if !strings.HasSuffix(op.text, "\n") {
			b.WriteByte('\n')
			b.WriteString(noNewline)
		}
	}
}

// hunkRange formats one side of a hunk header as GNU diff does: "l" for a single
// line, "l,n" otherwise, where an empty range names the line before it.
func hunkRange(before, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", before)
	case 1:
		return fmt.Sprintf("%d", before+1)
	}
	return fmt.Sprintf("%d,%d", before+1, n)
}

// DiffStat counts the added and removed lines of a unified diff.
func DiffStat(diff string) (added, removed int) {
	inHunk := false
	for line := range strings.Lines(diff) {
		switch {
		case strings.HasPrefix(line, "@@ "):
			inHunk = true
		case !inHunk:
			// the "---" and "+++" header lines
		case strings.HasPrefix(line, "+"):
			added++
		case strings.HasPrefix(line, "-"):
			removed++
		}
	}
	return added, removed
}
