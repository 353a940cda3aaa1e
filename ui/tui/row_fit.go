package tui

// Rows that must keep their first words when they do not fit: a subagent's
// timeline row (its type, description and current tool, cut at its end,
// never elided in the middle as a path is) and a subagent's request in the
// approvals pane (the tool kept, the subagent's label shortened first).

// rowFitter fits a list row into avail cells: its text and detail. A row
// with one replaces the pane's default fitting (fitListRow, fitApprovalRow).
type rowFitter func(avail int) (text, detail string)

// fitSubagentRow fits an Agent call's row into avail cells: lead ("▸
// [Explore]") whole, then the description, then " · " and the progress
// ("Grep loadConfig · 3 model calls"). When it does not fit, the progress is
// cut at its end first (its model calls go before its current tool); the
// description keeps at least half of what the lead leaves, cut at its end
// too; a progress left under 4 cells is dropped. Only when the lead alone
// does not fit is it cut. Pure, for the table test.
func fitSubagentRow(lead, desc, progress string, avail int) string {
	whole := lead
	if desc != "" {
		whole += " " + desc
	}
	if progress != "" {
		whole += " · " + progress
	}
	lw := textWidth(lead)
	if textWidth(whole) <= avail || lw >= avail {
		return elideEnd(whole, avail)
	}
	rest := avail - lw // cells after the lead
	if desc == "" {
		return lead + elideEnd(" · "+progress, rest)
	}
	dw, pw := textWidth(desc)+1, textWidth(progress)+3 // with their separators
	if progress == "" {
		return lead + elideEnd(" "+desc, rest)
	}
	descAlloc := min(dw, max(rest-pw, rest/2))
	progAlloc := rest - descAlloc
	if progAlloc < 3+4 {
		return lead + elideEnd(" "+desc, rest)
	}
	return lead + elideEnd(" "+desc, descAlloc) + elideEnd(" · "+progress, progAlloc)
}

// fitLabelled fits "prefix[label] text" into avail cells, shortening the
// label (cut at its end, at least one cell and "…") before the text is cut:
// a subagent's request keeps the tool that asks ("[gen…] Bash: ls").
// Pure, for the table test.
func fitLabelled(prefix, label, text string, avail int) string {
	if label == "" {
		return elideEnd(prefix+text, avail)
	}
	whole := prefix + "[" + label + "] " + text
	over := textWidth(whole) - avail
	if over <= 0 {
		return elideEnd(whole, avail)
	}
	lw := max(2, textWidth(label)-over)
	return elideEnd(prefix+"["+elideEnd(label, lw)+"] "+text, avail)
}
