package tui

import (
	"strings"

	"pincer/ui/tui/internal/cells"
)

// elideEnd fits s into width cells by cutting its end once, "…" in its
// place; s unchanged when it fits, "" when width < 1. Pure, for the table
// test.
func elideEnd(s string, width int) string {
	if textWidth(s) <= width {
		return s
	}
	if width < 1 {
		return ""
	}
	var b strings.Builder
	used := 0
	for rest, state := s, -1; rest != ""; {
		var c string
		var w int
		c, rest, w, state = cells.Next(rest, state)
		if used+w > width-1 {
			break
		}
		b.WriteString(c)
		used += w
	}
	return b.String() + "…"
}

// fitApprovalRow fits a row of the approvals pane into avail cells: the text
// (the tool, then its summary) first, cut once at its end when it does not
// fit; the detail (why it asks, how it was decided) only after the whole
// text, in the cells left (at least 4), cut at its end too. So a row never
// shows two cut pieces of the same words. Pure, for the table test.
func fitApprovalRow(text, detail string, avail int) (string, string) {
	tw := textWidth(text)
	if tw > avail || detail == "" || avail-tw-2 < 4 {
		return elideEnd(text, avail), ""
	}
	return text, elideEnd(detail, avail-tw-2)
}

// approvalText is a request's row text: the tool first, then its summary
// ("Bash: git add ...", "Edit main.go"); the summary alone when it already
// starts with the tool's name, the name alone when there is no summary.
func approvalText(name, summary string) string {
	summary = firstLine(summary)
	switch {
	case summary == "":
		return name
	case name == "" || strings.HasPrefix(summary, name):
		return summary
	}
	return name + ": " + summary
}

// repeats reports whether detail repeats the summary's own words (a Bash
// reason naming the command: "the command needs approval for git add ..."),
// so that the row does not show them twice.
func repeats(detail, name, summary string) bool {
	body := strings.TrimSpace(strings.TrimLeft(strings.TrimPrefix(firstLine(summary), name), ": "))
	if r := []rune(body); len(r) > 16 {
		body = string(r[:16])
	}
	return len([]rune(body)) >= 6 && strings.Contains(detail, body)
}
