package tui

// decidedPrefix starts the row key of a decided request in the approvals
// pane, so a request's row changes key when it is answered (the selection
// then falls back, and moves on to the next pending request).
const decidedPrefix = "done:"

// decidedRows are the approvals pane's rows below the pending queue: every
// request of the live session already decided (allowed, denied,
// interrupted), newest first, each saying how — so the pane still shows
// what happened after the queue empties (Found 13: "Approvals (0) nothing
// yet" after three decisions).
func (w *Workbench) decidedRows() []listRow {
	var rows []listRow
	for i := len(w.model.History) - 1; i >= 0; i-- {
		r := w.model.History[i]
		if r.Outcome == OutcomePending {
			continue
		}
		row := w.recordRow(r)
		row.Key = decidedPrefix + r.RequestID
		rows = append(rows, row)
	}
	return rows
}

// decidedCount is how many requests of the live session were decided.
func (w *Workbench) decidedCount() int {
	n := 0
	for _, r := range w.model.History {
		if r.Outcome != OutcomePending {
			n++
		}
	}
	return n
}
