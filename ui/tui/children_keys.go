package tui

// The timeline's keys for a subagent (the selected Agent call, or one of its
// nested steps): toggle shows or hides its steps under the call; open shows
// the child session's transcript read-only, as the sessions browser's Enter
// does (Esc comes back to the live session); cancel ends a running one
// (Backend.CancelSubagent), a background one included. Event loop only.

// subagentKey runs a subagent action on the timeline's selection.
func (w *Workbench) subagentKey(act Action) {
	s, ok := w.selectedSubagent()
	if !ok {
		w.hint("the selected timeline entry is not a subagent's")
		return
	}
	switch act {
	case ActSubCancel:
		be := w.be
		switch {
		case be == nil:
		case !s.Running() || s.Orphaned:
			w.hint("subagent " + subagentLabel(s) + " is not running")
		default:
			if err := be.CancelSubagent(s.ChildSessionID); err != nil {
				w.notice("warning", "subagent "+subagentLabel(s)+" not cancelled: "+err.Error())
				return
			}
			w.hint("cancelling subagent " + subagentLabel(s) + "…")
		}
	case ActSubToggle:
		w.toggleSubagent(s.ChildSessionID)
		if s.ToolCallID != "" && !w.subs.expanded[s.ChildSessionID] {
			w.timeline.sel = s.ToolCallID // its nested row went with the steps
		}
	case ActSubOpen:
		t, be, id := w.sessionTab, w.be, s.ChildSessionID
		if be == nil || w.running {
			w.hint("a subagent's transcript opens once no turn of this workbench runs")
			return
		}
		w.goBackground(func() {
			w.showSession(t, be, id, true)
			w.Notify("info", "subagent "+subagentLabel(s)+" (session "+id+"), read-only: Esc comes back")
		})
	}
}
