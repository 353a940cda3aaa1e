package headless

import (
	"fmt"
	"io"
	"strings"

	"pincer/core/event"
)

// Denial is a tool call the run's permission decision (or a PreToolUse hook)
// refused, as the json result lists it (permissionDenials, as claude -p's
// permission_denials): the call's id, tool, one-line summary, who refused it
// (tool.completed's DeniedBy: "headless" when the call needed a person this
// run does not have, "rule …", "hard-deny", "hook", "mode:plan", …) and the
// reason the model read, with the flag or rule that would allow it.
type Denial struct {
	ToolCallID string `json:"toolCallId"`
	Tool       string `json:"tool"`
	Summary    string `json:"summary"`
	By         string `json:"by"`
	Reason     string `json:"reason"`
}

// Tool-result prefixes of a refused call (core/agent's texts), dropped from
// Denial.Reason.
var deniedPrefixes = []string{"Permission denied: ", "Blocked by PreToolUse hook: "}

// denials collects the refused calls of the events a run handles, in order.
type denials struct{ list []Denial }

// see takes a tool.completed event with a DeniedBy and, when w is not nil,
// prints one line for it there: `pincer: denied Bash: rm -f x (headless): WHY`.
func (ds *denials) see(ev event.Event, w io.Writer) {
	if ev.Type != event.ToolCompleted {
		return
	}
	p, err := ev.Payload()
	if err != nil {
		return
	}
	d, ok := p.(event.ToolCompletedData)
	if !ok || d.DeniedBy == "" {
		return
	}
	reason, _, _ := strings.Cut(d.Output, "\n")
	for _, pre := range deniedPrefixes {
		reason = strings.TrimPrefix(reason, pre)
	}
	summary := d.Summary
	if summary == "" {
		summary = d.Name
	}
	ds.list = append(ds.list, Denial{ToolCallID: d.ToolCallID, Tool: d.Name, Summary: summary, By: d.DeniedBy, Reason: reason})
	if w != nil {
		fmt.Fprintf(w, "pincer: denied %s (%s): %s\n", summary, d.DeniedBy, reason)
	}
}
