package agent

import (
	"context"
	"errors"

	"pincer/core/event"
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
	for _, st := range openChildren(evs) {
		if r, ok := a.subagents.get(st.ChildSessionID); ok && r.info.Running {
			continue
		}
		if err := a.closeChild(ctx, parentID, st); err != nil {
			continue
		}
	}
}

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

// closeChild closes one abandoned child of parentID under the child's lease.
func (a *Agent) closeChild(ctx context.Context, parentID string, st event.SubagentStartedData) error {
	id := st.ChildSessionID
	if err := a.acquireLease(ctx, id); err != nil {
		return errChildLive
	}
	defer func() { _ = a.cfg.Store.ReleaseLease(context.WithoutCancel(ctx), id, a.owner) }()
	evs, err := a.cfg.Store.ListEvents(ctx, id, 0, 0)
	if err != nil {
		return err
	}
	closing, _ := event.CloseTurn(evs, event.Closer{By: abandonedBy, Who: "the pincer process running this subagent"})
	for _, ev := range closing {
		if _, err := a.log.Append(ctx, ev); err != nil {
			return err
		}
	}
	if sess, err := a.cfg.Store.GetSession(ctx, id); err == nil && (sess.Status == "running" || sess.Status == "idle") {
		a.markEnded(ctx, id, "failed") // idle: a child whose turn never started
	}
	_, err = a.log.Emit(ctx, event.SubagentCompleted, parentID, "", event.SubagentCompletedData{
		ToolCallID: st.ToolCallID, ChildSessionID: id, AgentType: st.AgentType, Outcome: string(OutcomeFailed),
		Error: "interrupted: the pincer process running the subagent ended before it finished", Background: st.Background,
		Branch: st.Branch,
	})
	return err
}
