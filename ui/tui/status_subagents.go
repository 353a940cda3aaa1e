package tui

import "fmt"

// runningSubagents counts the subagents still running across every tab (a
// background one works while its parent's turn is over), orphaned ones
// (their process died) not counted.
func (w *Workbench) runningSubagents() int {
	n, tabs := 0, w.tabs
	if len(tabs) == 0 && w.sessionTab != nil {
		tabs = []*sessionTab{w.sessionTab}
	}
	for _, t := range tabs {
		for _, s := range t.model.Subagents() {
			if s.Running() && !s.Orphaned {
				n++
			}
		}
	}
	return n
}

// subagentCount is the status line's field for n running subagents: "1
// subagent running", "2 subagents running".
func subagentCount(n int) string {
	if n == 1 {
		return "1 subagent running"
	}
	return fmt.Sprintf("%d subagents running", n)
}
