package tui

import "fmt"

// One queue for all tabs: the approvals pane lists the shown tab's pending
// requests, then every other tab's, each of those labelled with its tab
// ("tab 2 · Write b.txt"), and a key answers the selected one whichever tab
// it is of — the answer goes to the turn that asked (this workbench's: the
// shared approval queue; another process's: the store), never to another.
// While the shown tab shows a session read-only, the pane is that session's
// history and nothing is answerable.

// pendingEntry is one request waiting for an answer, with its tab.
type pendingEntry struct {
	tab *sessionTab
	a   PendingApproval
}

// allPending lists every tab's pending requests, the shown tab's first, then
// the others in tab order, each oldest first; none while the shown tab is
// read-only.
func (w *Workbench) allPending() []pendingEntry {
	if w.sessionTab == nil || w.readOnly {
		return nil
	}
	var out []pendingEntry
	add := func(t *sessionTab) {
		if t.readOnly {
			return
		}
		for _, a := range t.model.Approvals {
			out = append(out, pendingEntry{t, a})
		}
	}
	add(w.sessionTab)
	for _, t := range w.tabs {
		if t != w.sessionTab {
			add(t)
		}
	}
	return out
}

// pendingOf finds a pending request of any tab by its ID.
func (w *Workbench) pendingOf(requestID string) (pendingEntry, bool) {
	for _, e := range w.allPending() {
		if e.a.RequestID == requestID {
			return e, true
		}
	}
	return pendingEntry{}, false
}

// pendingLabel is what a queue row of another tab starts with ("tab 2 ·
// "); "" for the shown tab's.
func (w *Workbench) pendingLabel(e pendingEntry) string {
	if e.tab == w.sessionTab {
		return ""
	}
	return fmt.Sprintf("tab %d · ", w.tabNumber(e.tab))
}

// pendingApproval is a pending request of any tab by its ID.
func (w *Workbench) pendingApproval(requestID string) (PendingApproval, bool) {
	e, ok := w.pendingOf(requestID)
	return e.a, ok
}
