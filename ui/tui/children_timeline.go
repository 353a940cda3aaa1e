package tui

import (
	"fmt"
	"strings"

	"pincer/ui/termtext"
)

// The timeline's subagent rows. An Agent call that started a subagent shows
// the subagent's type, its description and its progress: the child's
// current tool and model calls so far while it runs (live from the child's
// log), how it ended once it did. Expanded (the timeline's toggle key) the
// child's own tool calls follow it, indented, each selectable like any
// entry (the diff pane shows its diff or output). Event loop only.

// childKeyPrefix starts the row key of a child's tool call:
// "sub:" + child session ID + "\x00" + tool call ID.
const childKeyPrefix = "sub:"

// timelineItem is one row of the timeline: an entry of the session, or of
// an expanded child (depth 1).
type timelineItem struct {
	e     *ToolEntry
	key   string
	depth int
	// text replaces the entry's summary (an Agent call's subagent line);
	// status its status ("" keeps the entry's).
	text   string
	status ToolStatus
	// fit fits an Agent call's row at draw time (fitSubagentRow).
	fit func(avail int) string
}

// timelineItems lists the rows of the timeline, the children's steps nested
// under their expanded Agent calls. With no subagent it is the timeline as
// it is.
func (w *Workbench) timelineItems() []timelineItem {
	items := w.subs.items[:0]
	subs := len(w.model.Subagents()) > 0
	for i := range w.model.Timeline {
		e := &w.model.Timeline[i]
		it := timelineItem{e: e, key: e.ToolCallID}
		if subs {
			if s, ok := w.model.SubagentOfCall(e.ToolCallID); ok {
				c := w.model.Child(s.ChildSessionID)
				open := w.subs.expanded[s.ChildSessionID]
				lead, desc, progress := subagentRowParts(s, c, open)
				it.text, it.status = subagentRowText(lead, desc, progress), subagentStatus(s, c, e.Status)
				it.fit = func(avail int) string { return fitSubagentRow(lead, desc, progress, avail) }
				items = append(items, it)
				if open && c != nil {
					for j := range c.Timeline {
						ce := &c.Timeline[j]
						items = append(items, timelineItem{e: ce, key: childKeyPrefix + s.ChildSessionID + "\x00" + ce.ToolCallID, depth: 1})
					}
				}
				continue
			}
		}
		items = append(items, it)
	}
	w.subs.items = items
	return items
}

// timelineTool returns the entry a timeline row key names: the session's,
// or a child's.
func (w *Workbench) timelineTool(key string) (ToolEntry, bool) {
	child, id, ok := strings.Cut(strings.TrimPrefix(key, childKeyPrefix), "\x00")
	if !ok || !strings.HasPrefix(key, childKeyPrefix) {
		return w.model.Tool(key)
	}
	c := w.model.Child(child)
	if c == nil {
		return ToolEntry{}, false
	}
	return c.Tool(id)
}

// selectedSubagent is the subagent of the timeline's selected row: an
// Agent call's, or the child whose step is selected.
func (w *Workbench) selectedSubagent() (SubagentEntry, bool) {
	row, ok := w.timeline.selected()
	if !ok {
		return SubagentEntry{}, false
	}
	if child, _, ok := strings.Cut(strings.TrimPrefix(row.Key, childKeyPrefix), "\x00"); ok && strings.HasPrefix(row.Key, childKeyPrefix) {
		return w.model.Subagent(child)
	}
	return w.model.SubagentOfCall(row.Key)
}

// subagentRowText is an Agent call's whole row: "▸ [Explore] find the
// loader · Grep loadConfig · 3 model calls"; fitSubagentRow fits it.
func subagentRowText(lead, desc, progress string) string {
	text := lead
	if desc != "" {
		text += " " + desc
	}
	return text + " · " + progress
}

// subagentRowParts are an Agent call's row in its three parts: the lead
// ("▸ [Explore]", ▾ when its steps are shown), the description and the
// progress (subagentProgress).
func subagentRowParts(s SubagentEntry, c *Model, open bool) (lead, desc, progress string) {
	mark := "▸ "
	if open {
		mark = "▾ "
	}
	lead = mark + "[" + termtext.Line(subagentLabel(s)) + "]"
	// The model wrote the description: a whole escape sequence goes
	// (termtext), not only its ESC ("\x1b[0m" left "[0m" in the row).
	return lead, firstLine(termtext.Clean(s.Description)), subagentProgress(s, c)
}

// subagentProgress is what a subagent is doing, or how it ended.
func subagentProgress(s SubagentEntry, c *Model) string {
	calls := func(n int) string {
		if n == 1 {
			return "1 model call"
		}
		return fmt.Sprintf("%d model calls", n)
	}
	switch {
	case s.Orphaned:
		return "interrupted"
	case s.Outcome == SubagentFailed:
		if s.Error != "" {
			return "failed: " + firstLine(termtext.Clean(s.Error))
		}
		return "failed"
	case s.Outcome == SubagentCancelled:
		return "cancelled"
	case !s.Running():
		done := "done · " + calls(s.ModelCalls)
		if s.Branch != "" {
			done += " · branch " + s.Branch
		}
		return done
	}
	now, n := "starting", 0
	if c != nil {
		n = c.Status.ModelCalls
		now = "thinking"
		for i := len(c.Timeline) - 1; i >= 0; i-- {
			if e := c.Timeline[i]; e.Status == ToolRunning || e.Status == ToolApproval || e.Status == ToolReceiving {
				now = firstLine(e.Summary)
				if e.Status == ToolApproval {
					now = "asks: " + now
				}
				break
			}
		}
	}
	// What it does now first: a row too narrow cuts its end (fitSubagentRow).
	if s.Background {
		now += " · background"
	}
	return now + " · " + calls(n)
}

// subagentStatus is the icon state of an Agent call's row: the subagent's
// while it runs (a background one's call returned at once) or failed.
func subagentStatus(s SubagentEntry, c *Model, call ToolStatus) ToolStatus {
	switch {
	case s.Orphaned:
		return ToolInterrupted
	case s.Outcome == SubagentFailed:
		return ToolFailed
	case s.Outcome == SubagentCancelled:
		return ToolInterrupted
	case s.Running():
		if c != nil && len(c.Approvals) > 0 {
			return ToolApproval
		}
		return ToolRunning
	}
	return call
}
