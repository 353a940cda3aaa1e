package tui

import (
	"strings"

	"pincer/core/event"
)

// The diff pane of a candidate: what accepting it would change, as the
// Backend's CandidateDiff computes it (memory.Diff: the target file now
// against the candidate's text, then the MEMORY.md index line). It reads
// files, so it is loaded off the event loop the first time the pane shows
// the candidate and kept by candidate ID (a candidate's text never changes:
// an edit is the decision); until it comes, the pane shows the text itself.

// candidateDiffs is the loaded diffs, part of UIState.
type candidateDiffs struct {
	diffs map[string]string // by candidate ID; the error text when it failed
	asked map[string]bool   // loads started
}

// candidateContent is the diff pane's content for candidate a: its header
// (who proposed it, the keys) and its diff (whose title is the target file).
func (w *Workbench) candidateContent(a PendingApproval) diffContent {
	c := a.Candidate
	header := "Why it asks: " + a.Reason + "\n" + candidateHint(w.keys) // the diff's title names the file
	dc := diffContent{Key: "req:" + a.RequestID, Title: a.Summary + " (awaiting review)", Header: proseParts(header)}
	if d, ok := w.candDiff.diffs[c.ID]; ok {
		dc.Text, dc.Diff = d, strings.HasPrefix(d, "---") || strings.Contains(d, "\n@@")
		return dc
	}
	w.loadCandidateDiff(c)
	dc.Text, dc.Prose = candidateText(c), true
	return dc
}

// candidateText is a candidate's text as the pane shows it before its diff
// has loaded.
func candidateText(c *event.CandidateProposedData) string {
	if c.Op == "remove" {
		return "Removes " + c.Target + " and its MEMORY.md line."
	}
	return c.Content
}

// loadCandidateDiff starts loading candidate c's diff, once.
func (w *Workbench) loadCandidateDiff(c *event.CandidateProposedData) {
	mb, ok := w.be.(memoryBackend)
	if !ok || w.be == nil || w.candDiff.asked[c.ID] {
		return
	}
	if w.candDiff.asked == nil {
		w.candDiff.asked, w.candDiff.diffs = map[string]bool{}, map[string]string{}
	}
	w.candDiff.asked[c.ID] = true
	id := c.ID
	w.goBackground(func() {
		d, err := mb.CandidateDiff(w.ctx, id)
		if err != nil {
			d = "No diff: " + err.Error()
		}
		w.pump.post(func() { w.candDiff.diffs[id] = d })
	})
}

// candidateHint is the diff pane's line of a candidate's answer keys, as the
// key map binds them.
func candidateHint(km *KeyMap) string {
	var parts []string
	for _, act := range candidateActions {
		if k := km.KeysOf(act); k != "" {
			parts = append(parts, k+" "+candidateAnswers[act].long)
		}
	}
	return strings.Join(parts, " · ")
}
