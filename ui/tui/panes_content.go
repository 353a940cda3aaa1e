package tui

import (
	"fmt"
	"strings"
	"time"
)

// What the timeline, approvals and diff panes show, read from the model. Every
// function here runs on the event loop.

// timelineRows lists every tool call: status icon, summary, duration. Rows are
// cached per entry (keyed by what they show), so a frame costs the same however many
// tool calls the session has; the returned slice is shared: read it, don't keep it.
func (w *Workbench) timelineRows() []listRow {
	items := w.timelineItems()      // the children's steps nested (children_timeline.go)
	if len(w.tlKeys) > len(items) { // a new session: start over
		w.tlKeys, w.tlRows = w.tlKeys[:0], w.tlRows[:0]
	}
	for i, it := range items {
		e := it.e
		k := timelineKey{id: it.key, name: e.Name, summary: e.Summary, status: e.Status, dur: e.Duration,
			text: it.text, shown: it.status, depth: it.depth}
		if i < len(w.tlKeys) {
			if w.tlKeys[i] == k {
				continue
			}
			w.tlKeys[i], w.tlRows[i] = k, w.timelineRow(it)
			continue
		}
		w.tlKeys = append(w.tlKeys, k)
		w.tlRows = append(w.tlRows, w.timelineRow(it))
	}
	return w.tlRows[:len(items)]
}

// timelineKey is what a timeline row shows of its entry.
type timelineKey struct {
	id, name, summary string
	status            ToolStatus
	dur               time.Duration
	text              string // a subagent's line (children_timeline.go)
	shown             ToolStatus
	depth             int
}

// timelineRow renders one timeline row.
func (w *Workbench) timelineRow(it timelineItem) listRow {
	e := *it.e
	text := e.Summary
	if text == "" {
		text = e.Name
	}
	if it.text != "" {
		text = it.text
	}
	if it.status != "" {
		e.Status = it.status
	}
	text = firstLine(text)
	if it.depth > 0 {
		text = "  ↳ " + text
	}
	right := ""
	if e.Duration > 0 {
		right = formatDuration(e.Duration)
	}
	row := listRow{Key: it.key, Icon: e.Status.Icon(), IconStyle: w.theme.Style(statusToken(e.Status)),
		Text: text, Style: w.theme.Style("text"), Right: right}
	if fit := it.fit; fit != nil && it.depth == 0 {
		row.Fit = func(avail int) (string, string) { return fit(avail), "" }
	}
	return row
}

// statusToken is the colour token of a tool status.
func statusToken(s ToolStatus) string {
	switch s {
	case ToolApproval:
		return "warning"
	case ToolRunning:
		return "accent"
	case ToolDone:
		return "success"
	case ToolFailed, ToolDenied:
		return "error"
	case ToolInterrupted, ToolUnanswered:
		return "warning"
	}
	return "muted"
}

// approvalRows lists the pending requests, oldest first, then the requests
// of the latest turn that were interrupted (not answerable, not counted). A
// session shown read-only lists its whole approvals history instead, but in
// time travel the rows a live session showed at the step.
func (w *Workbench) approvalRows() []listRow {
	if w.travel != nil {
		return w.travelApprovalRows() // timetravel_panes.go
	}
	if w.readOnly {
		rows := make([]listRow, len(w.model.History))
		for i, r := range w.model.History {
			rows[i] = w.recordRow(r)
		}
		return rows
	}
	pend := w.allPending() // every tab's, the shown one's first (approvals_tabs.go)
	rows := make([]listRow, 0, len(pend))
	for _, e := range pend {
		rows = append(rows, w.pendingRow(e))
	}
	pending := len(rows)
	rows = append(rows, w.decidedRows()...)
	if pending > 0 && w.approvals.fellBack && !w.isPending(w.approvals.sel) {
		w.approvals.sel = rows[0].Key // its request was answered: on to the next one
	}
	return rows
}

// pendingRow is the queue's row of a pending request.
func (w *Workbench) pendingRow(e pendingEntry) listRow {
	a := e.a
	detail := firstLine(a.Reason)
	if repeats(detail, a.Name, a.Summary) {
		detail = ""
	}
	return listRow{Key: a.RequestID, Icon: "?", IconStyle: w.theme.Style("warning"),
		Text: w.pendingLabel(e) + queueText(a), Style: w.theme.Style("text"), Detail: detail, EndCut: true,
		Fit: queueFit(w.pendingLabel(e), a, detail)}
}

// recordRow is a row of the approvals history: outcome icon, summary, and how
// it was decided.
func (w *Workbench) recordRow(r ApprovalRecord) listRow {
	icon, token, detail := "?", "warning", "pending"
	switch {
	case r.Candidate != nil && r.Outcome != OutcomePending:
		icon, token, detail = candidateOutcome(r)
	case r.Outcome == OutcomeAllow:
		icon, token, detail = "✓", "success", "allowed "+r.Scope
	case r.Outcome == OutcomeDeny:
		icon, token, detail = "✗", "error", "denied"
		if r.Detail != "" {
			detail += ": " + r.Detail
		}
	case r.Outcome == OutcomeInterrupted:
		icon, token, detail = "↯", "warning", "interrupted"
	}
	if r.By != "" && r.Outcome != OutcomeInterrupted {
		detail += " (" + r.By + ")"
	}
	return listRow{Key: r.RequestID, Icon: icon, IconStyle: w.theme.Style(token), Text: queueText(r.PendingApproval),
		Style: w.theme.Style("muted"), Detail: firstLine(detail), EndCut: true,
		Fit: queueFit("", r.PendingApproval, firstLine(detail))}
}

// diffContent is what the diff pane shows: the selected pending approval
// (its would-be diff) when the approval queue is focused or was last, else
// the selected timeline entry (its diff, or its would-be diff while it awaits
// approval, or its output).
func (w *Workbench) diffContent() diffContent {
	if c, ok := w.travelDiffContent(); ok { // time travel's scopes (timetravel_diff.go)
		return c
	}
	fromApprovals := w.focus == paneApprovals ||
		(w.focus != paneTimeline && w.lastList == paneApprovals && w.queueCount() > 0)
	if fromApprovals {
		if row, ok := w.approvals.selected(); ok {
			if e, ok := w.pendingOf(row.Key); ok {
				return w.wouldBeContent(e.a)
			}
			if a, ok := w.travelPending(row.Key); ok {
				return w.wouldBeContent(a)
			}
			if r := w.model.record(strings.TrimPrefix(row.Key, decidedPrefix)); r != nil {
				return w.recordContent(*r)
			}
		}
	}
	row, ok := w.timeline.selected()
	if !ok {
		return diffContent{Key: "none", Text: diffPlaceholder, Prose: true}
	}
	e, _ := w.timelineTool(row.Key)
	if e.Status == ToolApproval && e.RequestID != "" && (!w.readOnly || w.travel != nil) {
		if a, ok := w.model.Approval(e.RequestID); ok {
			return w.wouldBeContent(a)
		}
	}
	key := "tool:" + e.ToolCallID + ":" + string(e.Status)
	switch {
	case e.Diff != "":
		return diffContent{Key: key, Title: e.Summary, Text: e.Diff, Diff: true}
	case e.Output != "":
		return diffContent{Key: key, Title: e.Summary + " (output)", Text: e.Output}
	}
	return diffContent{Key: key, Title: e.Summary, Text: fmt.Sprintf("%s: %s", e.Summary, e.Status), Prose: true}
}

// recordContent shows a request of the history: the diff its call
// made when it ran, else what was asked and what became of it.
func (w *Workbench) recordContent(r ApprovalRecord) diffContent {
	key := "rec:" + r.RequestID + ":" + r.Outcome
	if e, ok := w.model.Tool(r.ToolCallID); ok && e.Diff != "" {
		return diffContent{Key: key, Title: r.Summary, Text: e.Diff, Diff: true}
	}
	row := w.recordRow(r)
	text := fmt.Sprintf("%s\nWhy it asked: %s\nOutcome: %s", r.Summary, r.Reason, row.Detail)
	if r.Outcome == OutcomeInterrupted && r.Detail != "" {
		text += "\n" + r.Detail
	}
	return diffContent{Key: key, Title: r.Summary + " (" + row.Detail + ")", Text: text, Prose: true}
}

// wouldBeContent shows the diff a pending request would make, as its
// permission.requested event carries it (the tool's own Preview), or why the
// call would fail.
func (w *Workbench) wouldBeContent(a PendingApproval) diffContent {
	if a.Candidate != nil {
		return w.candidateContent(a) // candidate_diff.go
	}
	c := diffContent{Key: "req:" + a.RequestID, Title: a.Summary + " (awaiting approval)"}
	c.Header = proseParts(fmt.Sprintf("%s\nWhy it asks: %s\n%s", a.Summary, a.Reason, approvalHint(w.keys)))
	if a.Command != "" {
		var rest bool
		c.Header, rest = commandHeader(a.Command, a.Reason, approvalHint(w.keys))
		if rest {
			c.Text = "The whole command:\n" + a.Command
		}
		return c
	}
	switch {
	case a.Diff != "":
		c.Text, c.Diff = a.Diff, true
	case a.PreviewError != "":
		c.Text, c.Prose = "No preview: "+a.PreviewError, true
	case a.Name == "Edit" || a.Name == "Write":
		c.Text, c.Prose = "The call would change nothing.", true
	}
	return c
}

// diffPlaceholder is the diff pane's text before any tool call.
const diffPlaceholder = "No tool calls yet. The diff of the selected timeline entry or pending approval shows here."

// shortID shortens a session ID for the status line.
func shortID(id string) string {
	if i := strings.LastIndexByte(id, '-'); i >= 0 && len(id)-i > 4 {
		return id[i+1:]
	}
	return id
}
