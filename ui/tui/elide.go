package tui

import "pincer/ui/tui/internal/cells"

// elideMiddle fits s into width cells by replacing its middle with "…"
// (its start and end stay: a long path keeps its file name); s unchanged
// when it fits, "" when width < 1. Pure, for the table test.
func elideMiddle(s string, width int) string {
	if textWidth(s) <= width {
		return s
	}
	if width < 1 {
		return ""
	}
	var clusters []string
	var widths []int
	for rest, state := s, -1; rest != ""; {
		var c string
		var w int
		c, rest, w, state = cells.Next(rest, state)
		clusters, widths = append(clusters, c), append(widths, w)
	}
	budget := width - 1 // the "…"
	headW := (budget + 1) / 2
	head, used, i := "", 0, 0
	for ; i < len(clusters) && used+widths[i] <= headW; i++ {
		head += clusters[i]
		used += widths[i]
	}
	tail, j := "", len(clusters)-1
	for ; j >= i && used+widths[j] <= budget; j-- {
		tail = clusters[j] + tail
		used += widths[j]
	}
	return head + "…" + tail
}

// fitListRow shares avail cells between a list row's text and its detail
// (two cells apart): both whole when they fit; else the detail (the state:
// "denied", "Edit needs approval ...") keeps at least half, the text the
// rest, each with its middle elided (elideMiddle) rather than its end cut;
// when that leaves the text under 6 cells or the detail under 4, the detail
// is dropped and the text has the row. Pure, for the table test.
func fitListRow(text, detail string, avail int) (string, string) {
	tw, dw := textWidth(text), textWidth(detail)
	if detail == "" {
		return elideMiddle(text, avail), ""
	}
	if tw+2+dw <= avail {
		return text, detail
	}
	detailAlloc := min(dw, max(avail-2-tw, (avail-2)/2))
	textAlloc := avail - 2 - detailAlloc
	if detailAlloc < 4 || textAlloc < 6 {
		return elideMiddle(text, avail), ""
	}
	return elideMiddle(text, textAlloc), elideMiddle(detail, detailAlloc)
}
