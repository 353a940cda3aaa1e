package tui

import (
	"errors"

	"pincer/core/agent"
	"pincer/core/permission"
)

// A subagent's request in the queue (reduce_subagents.go mirrors it there):
// labelled with the subagent, answered with the same keys. The approval
// queue is global by request ID, so this process's Resolve answers a child
// run here whatever runs its parent's turn; a child run by another process
// is answered through the store, on the child's session.

// queueText is a pending request's row text: "[Explore] Bash: ls" for a
// subagent's, as approvalText for the session's own.
func queueText(a PendingApproval) string {
	text := approvalText(a.Name, a.Summary)
	if a.Agent != "" {
		text = "[" + a.Agent + "] " + text
	}
	return text
}

// queueFit fits a subagent's request row (prefix: the tab's, "" for the
// shown tab's): its label shortened before its tool is cut (fitLabelled),
// then as any approvals row (fitApprovalRow); nil for the session's own.
func queueFit(prefix string, a PendingApproval, detail string) rowFitter {
	if a.Agent == "" {
		return nil
	}
	text := approvalText(a.Name, a.Summary)
	return func(avail int) (string, string) {
		return fitApprovalRow(fitLabelled(prefix, a.Agent, text, avail), detail, avail)
	}
}

// answerChild sends the answer to a subagent's request: to this process's
// queue, else (no such request here: another process runs the child)
// through the store.
func (w *Workbench) answerChild(be Backend, a PendingApproval, behavior permission.Behavior, scope permission.Scope, reason string) {
	err := be.Resolve(a.RequestID, behavior, scope, reason)
	if errors.Is(err, agent.ErrNoSuchRequest) {
		w.answerRemote(be, a.SessionID, a.RequestID, behavior, scope, reason)
	}
}
