package tui

import "strings"

// helpKeyIndent is where a key binding's help text starts on a help line
// ("  %-24s %s": two spaces, the keys, a space).
const helpKeyIndent = 27

// wrapHelpLines wraps the help screen's lines to width cells (wrapCells): a
// binding's text continues under its own start ("  Esc   cancel the running
// turn (first it" / "        unzooms a pane ..."), or four cells in where that
// leaves fewer than 20; nothing is cut. Pure, for the table test.
func wrapHelpLines(lines []string, width int) []string {
	var out []string
	for _, l := range lines {
		if textWidth(l) <= width {
			out = append(out, l)
			continue
		}
		indent := 4
		if strings.HasPrefix(l, "  ") && width-helpKeyIndent >= 20 {
			indent = helpKeyIndent
		}
		rows := wrapCells(l, width)
		out = append(out, rows[0])
		pad := strings.Repeat(" ", indent)
		rest := strings.TrimLeft(strings.Join(rows[1:], " "), " ")
		if rest != "" {
			for _, r := range wrapCells(rest, width-indent) {
				out = append(out, pad+r)
			}
		}
	}
	return out
}
