package tui

import (
	"time"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// span is a run of one line's text, changed or not, for the diff pane's
// word-level highlight.
type span struct {
	Text    string
	Changed bool
}

// wordDiffMax is the longest pair of lines (in bytes, together) the diff pane
// diffs by word; longer pairs are shown without the intra-line highlight.
const wordDiffMax = 8 << 10

// wordDiff compares a removed line with the added line paired with it and
// returns each as spans, the changed parts marked: go-diff's DiffMain then
// DiffCleanupSemantic (edits grown to whole words where that reads better),
// as the library notes advise for intra-line highlights. The whole file's
// diff is tools.UnifiedDiff's; this only colours inside a changed line.
// Lines too long (wordDiffMax) come back whole and unmarked.
func wordDiff(old, new string) (oldSpans, newSpans []span) {
	if len(old)+len(new) > wordDiffMax {
		return []span{{Text: old}}, []span{{Text: new}}
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 50 * time.Millisecond
	diffs := dmp.DiffCleanupSemantic(dmp.DiffMain(old, new, false))
	add := func(out []span, text string, changed bool) []span {
		if text == "" {
			return out
		}
		if n := len(out); n > 0 && out[n-1].Changed == changed {
			out[n-1].Text += text
			return out
		}
		return append(out, span{Text: text, Changed: changed})
	}
	for _, d := range diffs {
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			oldSpans, newSpans = add(oldSpans, d.Text, false), add(newSpans, d.Text, false)
		case diffmatchpatch.DiffDelete:
			oldSpans = add(oldSpans, d.Text, true)
		case diffmatchpatch.DiffInsert:
			newSpans = add(newSpans, d.Text, true)
		}
	}
	return oldSpans, newSpans
}
