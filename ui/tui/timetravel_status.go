package tui

import (
	"fmt"
	"strings"
	"time"
)

// What time travel changes in the approvals pane, the status line and the
// key bar: the pane lists the requests pending at the step as a live
// session's queue did (none answerable: they are history), the status line
// says where the step is and draws the log as a cursor bar with the turns
// marked, the key bar leads with the travel keys.

// cursorWidth is how many cells the status line's cursor bar takes.
const cursorWidth = 24

// queueCount is how many requests the approvals pane lists as pending: every
// tab's live ones (pendingCount), or in time travel those pending at the step.
func (w *Workbench) queueCount() int {
	if w.travel != nil {
		return len(w.model.Approvals)
	}
	return w.pendingCount()
}

// travelPending is a request pending at the step of the shown tab's time
// travel (false when it does not travel or the request was not pending).
func (w *Workbench) travelPending(requestID string) (PendingApproval, bool) {
	if w.travel == nil {
		return PendingApproval{}, false
	}
	return w.model.Approval(requestID)
}

// travelApprovalRows are the approvals pane's rows at the step: the requests
// pending then, oldest first, then those decided by then, newest first — the
// rows the live session's pane showed.
func (w *Workbench) travelApprovalRows() []listRow {
	rows := make([]listRow, 0, len(w.model.Approvals))
	for _, a := range w.model.Approvals {
		rows = append(rows, w.pendingRow(pendingEntry{tab: w.sessionTab, a: a}))
	}
	return append(rows, w.decidedRows()...)
}

// travelApprovalsTitle is the approvals pane's title in time travel: as a
// live session's (approvalsTitle) while nothing was pending at the step;
// with n pending, "pending then" instead of the answer keys, which answer
// nothing here.
func (w *Workbench) travelApprovalsTitle(n int, zoom string, width int) string {
	decided := w.decidedCount()
	if n == 0 {
		return w.approvalsTitle(0, decided, zoom, width)
	}
	forms := []string{fmt.Sprintf(" 3 Approvals (%d pending then · %d decided)", n, decided),
		fmt.Sprintf(" 3 Approvals (%d then)", n), fmt.Sprintf(" 3 (%d)", n)}
	for _, f := range forms {
		if t := f + zoom + " "; textWidth(strings.ReplaceAll(t, "[]", "]")) <= width-2 {
			return t
		}
	}
	return forms[len(forms)-1] + " "
}

// readOnlyFields are the status line's fields of a session shown read-only:
// "read-only ID (Esc returns)", or in time travel where the step is
// ("time travel · seq N/M · turn k/K"), the cursor bar, the session and
// what the diff pane shows (d).
func (w *Workbench) readOnlyFields() []statusField {
	tt := w.travel
	if tt == nil {
		label := "read-only " + shortID(w.sessionID) + " (Esc returns)"
		if w.travelLoad.on {
			label = "read-only " + shortID(w.sessionID) + " · time travel: reading the log…"
		}
		return []statusField{{label, prioState}}
	}
	turn, turns := tt.turnAt()
	mark := fmt.Sprintf("time travel · seq %d/%d · turn %d/%d", tt.seq(), tt.last(), turn, turns)
	return []statusField{{mark, prioState}, {travelCursor(len(tt.events), tt.pos, tt.turnStarts(), cursorWidth), prioState},
		{shortID(w.sessionID) + " (Esc returns)", prioSession}, {"diff: " + scopeNames[tt.scope], prioCtx}}
}

// travelNow is the status line's clock in time travel: the step's time (a
// turn running then shows how long it had run), else now.
func (w *Workbench) travelNow(now time.Time) time.Time {
	if tt := w.travel; tt != nil && tt.pos > 0 {
		return tt.events[tt.pos-1].Timestamp
	}
	return now
}

// travelCursor draws the log of n events as width cells: the step (pos
// events in) as ●, the events before it ━ and after it ─, a cell where a
// turn starts ┃ before the step and ╎ after it. Pure.
func travelCursor(n, pos int, turnStarts []int, width int) string {
	if n == 0 || width <= 0 {
		return ""
	}
	cellOf := func(p int) int { return min(width-1, max(0, (p-1)*width/n)) }
	cells := make([]rune, width)
	at := cellOf(pos)
	for i := range cells {
		cells[i] = '─'
		if i < at {
			cells[i] = '━'
		}
	}
	for _, p := range turnStarts {
		c := cellOf(p)
		if c < at {
			cells[c] = '┃'
		} else {
			cells[c] = '╎'
		}
	}
	cells[at] = '●'
	return "▕" + string(cells) + "▏"
}

// travelBarKeys lead the key bar while a session is shown read-only: the
// time-travel keys.
func (w *Workbench) travelBarKeys() []string {
	if !w.readOnly || w.sessionTab == nil {
		return nil
	}
	return w.keys.HelpBar([]Context{CtxTravel})
}
