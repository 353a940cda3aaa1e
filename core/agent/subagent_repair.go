package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pincer/core/event"
	"pincer/tools"
)

// Children left behind. A process killed while a subagent ran (kill -9, a
// crash) leaves the child session with a turn nobody will finish and the
// parent's log with a subagent.started that no subagent.completed answers.
// The parent's own transcript is repaired in its view (RepairView gives the
// Agent call its one result); the first turn this process runs on the parent
// closes each such child too, as the store daemon closes a dead client's
// turn (event.CloseTurn: a deny for each pending request, an error
// tool.completed for each started tool call, turn.failed), marks it failed,
// and records subagent.completed (outcome failed) in the parent's log. A
// child whose lease a live process holds is left alone.

// abandonedBy is the By of the permission.resolved events closing a child's turn.
const abandonedBy = "pincer"

// closeAbandonedChildren closes the children of session parentID that a
// process before this one left running (see above). It runs once per parent
// session and agent; errors are left for the next process (best effort: the
// parent's turn goes on).
func (a *Agent) closeAbandonedChildren(ctx context.Context, parentID string) {
	a.mu.Lock()
	if a.childrenChecked == nil {
		a.childrenChecked = map[string]bool{}
	}
	if a.childrenChecked[parentID] {
		a.mu.Unlock()
		return
	}
	a.childrenChecked[parentID] = true
	a.mu.Unlock()
	evs, err := a.cfg.Store.ListEvents(ctx, parentID, 0, 0)
	if err != nil {
		return
	}
	a.shellSet(parentID).ContinueAfter(shellsNumbered(evs))
	dead := a.closeDeadShells(ctx, parentID, evs)
	a.rememberEarlierShells(parentID, evs, dead)
	for _, sh := range dead {
		a.Remind(parentID, fmt.Sprintf("Background shell %s (%s) ended with the pincer process that ran it, which stopped before this one started: "+
			"it is no longer running, and its output was not kept. Start it again if it is still needed.", sh.ShellID, sh.Command))
	}
	for _, st := range openChildren(evs) {
		if r, ok := a.subagents.get(st.ChildSessionID); ok && r.info.Running {
			continue
		}
		shells, err := a.closeChild(ctx, parentID, st)
		if err != nil {
			continue
		}
		if st.Background {
			// It was told the result "arrives in a system reminder": say it never will.
			text := fmt.Sprintf("Background agent %s (%s: %s) was interrupted: the pincer process running it ended before it finished, "+
				"so its result will not arrive. Its session keeps the steps it made; start it again, or do the work yourself, if it is still needed.",
				st.ChildSessionID, st.AgentType, st.Description)
			for _, sh := range shells {
				text += fmt.Sprintf("\nIts background shell %s (%s) ended with that process.", sh.ShellID, sh.Command)
			}
			a.Remind(parentID, text)
		}
	}
}

// closeDeadShells records the end of the background shells of session id
// that a process before this one started and never saw end (shell.started
// with no shell.exited after it): they ended with that process (its
// parent-death signal). It returns them; each gets shell.exited, reason
// "process_ended". Called on the session's first turn in this process, when
// no shell of this process can be among them.
func (a *Agent) closeDeadShells(ctx context.Context, id string, evs []event.Event) []event.ShellStartedData {
	var open []event.ShellStartedData
	for _, ev := range evs {
		if ev.Type != event.ShellStarted && ev.Type != event.ShellExited {
			continue
		}
		p, err := ev.Payload()
		if err != nil {
			continue
		}
		switch d := p.(type) {
		case event.ShellStartedData:
			open = append(open, d)
		case event.ShellExitedData:
			for i, o := range open {
				if o.ShellID == d.ShellID {
					open = append(open[:i], open[i+1:]...)
					break
				}
			}
		}
	}
	for _, sh := range a.Shells(id) { // never this process's (see above), but be sure
		open = slices.DeleteFunc(open, func(o event.ShellStartedData) bool { return o.ShellID == sh.ID })
	}
	for _, sh := range open {
		_, _ = a.log.Emit(ctx, event.ShellExited, id, "", event.ShellExitedData{ShellID: sh.ShellID, ExitCode: -1, Reason: ShellProcessEnded})
	}
	return open
}

// shellsNumbered is the highest N of the background shells bash_N that
// shell.started events of evs name (0 when none).
func shellsNumbered(evs []event.Event) int {
	n := 0
	for _, ev := range evs {
		if ev.Type != event.ShellStarted {
			continue
		}
		var d event.ShellStartedData
		if ev.Decode(&d) != nil {
			continue
		}
		if k, err := strconv.Atoi(strings.TrimPrefix(d.ShellID, "bash_")); err == nil && strings.HasPrefix(d.ShellID, "bash_") {
			n = max(n, k)
		}
	}
	return n
}

// ShellProcessEnded is the shell.exited reason of a background shell that
// ended with a pincer process that stopped without recording it (kill -9).
const ShellProcessEnded = tools.ShellProcessEnded

// openChildren returns the subagent.started events of a parent's log that no
// subagent.completed of the same child answers, in log order.
func openChildren(evs []event.Event) []event.SubagentStartedData {
	var open []event.SubagentStartedData
	for _, ev := range evs {
		switch ev.Type {
		case event.SubagentStarted, event.SubagentCompleted:
		default:
			continue
		}
		p, err := ev.Payload()
		if err != nil {
			continue
		}
		switch d := p.(type) {
		case event.SubagentStartedData:
			open = append(open, d)
		case event.SubagentCompletedData:
			for i, o := range open {
				if o.ChildSessionID == d.ChildSessionID {
					open = append(open[:i], open[i+1:]...)
					break
				}
			}
		}
	}
	return open
}

// errChildLive is closeChild's answer for a child another live process runs.
var errChildLive = errors.New("the subagent's session is held by a live process")

// closeChild closes one abandoned child of parentID under the child's lease,
// and returns the child's background shells that ended with the process.
func (a *Agent) closeChild(ctx context.Context, parentID string, st event.SubagentStartedData) ([]event.ShellStartedData, error) {
	id := st.ChildSessionID
	if err := a.acquireLease(ctx, id); err != nil {
		return nil, errChildLive
	}
	defer func() { _ = a.cfg.Store.ReleaseLease(context.WithoutCancel(ctx), id, a.owner) }()
	evs, err := a.cfg.Store.ListEvents(ctx, id, 0, 0)
	if err != nil {
		return nil, err
	}
	closing, _ := event.CloseTurn(evs, event.Closer{By: abandonedBy, Who: "the pincer process running this subagent"})
	for _, ev := range closing {
		if _, err := a.log.Append(ctx, ev); err != nil {
			return nil, err
		}
	}
	shells := a.closeDeadShells(ctx, id, evs)
	if sess, err := a.cfg.Store.GetSession(ctx, id); err == nil && (sess.Status == "running" || sess.Status == "idle") {
		a.markEnded(ctx, id, "failed") // idle: a child whose turn never started
	}
	_, err = a.log.Emit(ctx, event.SubagentCompleted, parentID, "", event.SubagentCompletedData{
		ToolCallID: st.ToolCallID, ChildSessionID: id, AgentType: st.AgentType, Outcome: string(OutcomeFailed),
		Error: "interrupted: the pincer process running the subagent ended before it finished", Background: st.Background,
		Branch: st.Branch,
	})
	return shells, err
}
