package tui

import "strings"

// Key bar separators: between the approval keys (compact, they are one group)
// and between the other items.
const (
	keyBarFirstSep = " · "
	keyBarSep      = "  ·  "
)

// fitKeyBar lays out the key bar in width cells: the first group (the
// approval keys while a request waits) whole and first, then as many of rest
// (the generic keys) as fit, in order, skipping those that do not. The first
// group is never cut: when it is wider than width even alone, it is shortened
// to its keys only ("y s a n N"), which is the last thing to go. Pure: the
// key bar's table test drives it at 80, 120 and 200 columns.
func fitKeyBar(first, rest []string, width int) string {
	head := ""
	for i, it := range first {
		if i > 0 && !strings.HasSuffix(first[i-1], ":") {
			head += keyBarFirstSep
		} else if i > 0 {
			head += " "
		}
		head += it
	}
	if textWidth(head) > width {
		var keys []string
		for _, it := range first {
			if k, _, ok := strings.Cut(it, " "); ok && !strings.HasSuffix(it, ":") {
				keys = append(keys, k)
			}
		}
		head = strings.Join(keys, " ")
	}
	out, used := head, textWidth(head)
	for _, it := range rest {
		sep := keyBarSep
		if out == "" {
			sep = ""
		}
		if n := textWidth(sep + it); used+n <= width {
			out += sep + it
			used += n
		}
	}
	return out
}
