package tui

import "fmt"

// tabCounts are the status line's counts across every tab: how many
// sessions run a turn and how many requests wait for an answer.
func (w *Workbench) tabCounts() (running, pending int) {
	for _, t := range w.tabs {
		if t.turnRunning() {
			running++
		}
		pending += t.pending()
	}
	return running, pending
}

// tabsStatus is the status line's field for the tabs: "3 tabs: 2 running,
// 2 awaiting approval"; "" with one tab (the line then says it of the one).
func (w *Workbench) tabsStatus() string {
	if len(w.tabs) < 2 {
		return ""
	}
	running, pending := w.tabCounts()
	text := fmt.Sprintf("%d tabs: %d running", len(w.tabs), running)
	if pending > 0 {
		text += fmt.Sprintf(", %d awaiting approval", pending)
	}
	return text
}
