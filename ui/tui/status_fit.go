package tui

import "strings"

// statusField is one field of the status line: its text and its priority
// (0 is kept longest; higher numbers are dropped first when the line does
// not fit).
type statusField struct {
	text string
	prio int
}

// Status field priorities, kept longest first: the approval notice and the
// turn state are what the line is for (issue 12: the approval keys are never
// cut); the session ID and the token counts go first.
const (
	prioApproval = iota
	prioState
	prioMode
	prioModel
	prioCtx
	prioCost
	prioTokens
	prioSession
)

// statusSep separates the status line's fields.
const statusSep = " · "

// fitStatus lays out the status line in width cells: the fields in their
// order, joined by " · ", dropping the lowest-priority field (the last one of
// that priority first) until the line fits. A field is never cut; when even
// the highest-priority field alone is wider than width, that field alone is
// returned (the screen clips it). Pure: the status line's table test drives it.
func fitStatus(fields []statusField, width int) string {
	keep := append([]statusField(nil), fields...)
	for {
		texts := make([]string, len(keep))
		for i, f := range keep {
			texts[i] = f.text
		}
		line := strings.Join(texts, statusSep)
		if textWidth(line) <= width || len(keep) <= 1 {
			return line
		}
		drop := len(keep) - 1
		for i := len(keep) - 1; i >= 0; i-- {
			if keep[i].prio > keep[drop].prio {
				drop = i
			}
		}
		keep = append(keep[:drop], keep[drop+1:]...)
	}
}
