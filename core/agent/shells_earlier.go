package agent

import (
	"slices"

	"pincer/core/event"
	"pincer/tools"
)

// rememberEarlierShells gives session id's set of background shells the
// shells its earlier processes ran, as the log evs (read before this
// process's first turn on it) tells them, with the ones closeDeadShells
// just recorded as ended with their process (closed): so BashOutput and
// KillShell of such an ID tell the model that shell belonged to an earlier
// run and ended with it (tools.EarlierShellError), not that it never
// existed (new user r23: "no background shell with that ID" after
// --continue, while /bashes listed it as ended with the session).
func (a *Agent) rememberEarlierShells(id string, evs []event.Event, closed []event.ShellStartedData) {
	var order []string
	byID := map[string]tools.ShellInfo{}
	for _, ev := range evs {
		switch ev.Type {
		case event.ShellStarted:
			var d event.ShellStartedData
			if ev.Decode(&d) != nil || d.ShellID == "" {
				continue
			}
			if _, ok := byID[d.ShellID]; !ok {
				order = append(order, d.ShellID)
			}
			byID[d.ShellID] = tools.ShellInfo{ID: d.ShellID, Command: d.Command, ToolCallID: d.ToolCallID,
				Started: ev.Timestamp, ExitCode: -1, Reason: tools.ShellProcessEnded}
		case event.ShellExited:
			var d event.ShellExitedData
			if ev.Decode(&d) != nil {
				continue
			}
			if i, ok := byID[d.ShellID]; ok {
				i.Reason, i.ExitCode = d.Reason, d.ExitCode
				byID[d.ShellID] = i
			}
		}
	}
	for _, c := range closed {
		if i, ok := byID[c.ShellID]; ok {
			i.Reason, i.ExitCode = tools.ShellProcessEnded, -1
			byID[c.ShellID] = i
		}
	}
	for _, sh := range a.Shells(id) { // never this process's (its first turn), but be sure
		order = slices.DeleteFunc(order, func(o string) bool { return o == sh.ID })
	}
	earlier := make([]tools.ShellInfo, 0, len(order))
	for _, o := range order {
		earlier = append(earlier, byID[o])
	}
	if len(earlier) > 0 {
		a.shellSet(id).RememberEarlier(earlier)
	}
}
