package tui

import (
	"pincer/core/event"
	"pincer/ui/tui/transcript"
)

// Outcomes of a permission request in the approvals history.
const (
	OutcomePending     = ""            // still in the queue
	OutcomeAllow       = "allow"       // permission.resolved allowed it
	OutcomeDeny        = "deny"        // permission.resolved denied it
	OutcomeInterrupted = "interrupted" // its turn ended, or its process died, unanswered
)

// TurnInterrupted is the turn state of a turn the log left open with no
// process running it (see Model.Interrupt).
const TurnInterrupted = "interrupted"

// ApprovalRecord is one permission request of the session and what became of
// it: the approvals history a session opened read-only shows.
type ApprovalRecord struct {
	PendingApproval
	// Outcome is one of the Outcome* constants.
	Outcome string
	// Scope, By and Detail are the resolution's scope (once, session,
	// always), who decided, and its reason (or why it was interrupted).
	Scope, By, Detail string
}

// record returns the history record of a request, nil when there is none.
func (m *Model) record(requestID string) *ApprovalRecord {
	if i, ok := m.historyIndex[requestID]; ok {
		return &m.History[i]
	}
	return nil
}

// addRecord puts a new request in the history (once per request ID).
func (m *Model) addRecord(a PendingApproval) {
	if m.record(a.RequestID) != nil {
		return
	}
	m.historyIndex[a.RequestID] = len(m.History)
	m.History = append(m.History, ApprovalRecord{PendingApproval: a})
}

// resolveRecord writes a resolution into the history.
func (m *Model) resolveRecord(d event.PermissionResolvedData) {
	r := m.record(d.RequestID)
	if r == nil {
		return
	}
	r.Outcome, r.Scope, r.By, r.Detail = OutcomeDeny, d.Scope, d.By, d.Reason
	switch {
	case d.Decision == "allow":
		r.Outcome = OutcomeAllow
	case d.By == event.ByUnanswered: // nobody answered: not the person's denial
		r.Outcome, r.By = OutcomeInterrupted, ""
	}
}

// interruptApproval marks a request nobody can answer any more: its turn
// ended (or a later one started) without a permission.resolved. The caller
// takes it out of the queue.
func (m *Model) interruptApproval(a PendingApproval, why string) {
	if r := m.record(a.RequestID); r != nil && r.Outcome == OutcomePending {
		r.Outcome, r.Detail = OutcomeInterrupted, why
	}
	i, ok := m.toolIndex[a.ToolCallID]
	if !ok {
		return
	}
	e := &m.Timeline[i]
	if e.Status == ToolApproval && e.RequestID == a.RequestID {
		e.Status, e.RequestID = ToolInterrupted, ""
		m.upsertBlock(toolBlock(*e))
	}
}

// dropApprovals removes from the queue the requests for which drop is true,
// marking each interrupted with why. A candidate is never dropped: it waits
// in the store for a person, whatever became of its turn.
func (m *Model) dropApprovals(drop func(PendingApproval) bool, why string) {
	kept := m.Approvals[:0:0]
	for _, a := range m.Approvals {
		if a.Candidate == nil && drop(a) {
			m.interruptApproval(a, why)
			continue
		}
		kept = append(kept, a)
	}
	m.Approvals = kept
}

// Interrupt closes what the log left open. The workbench calls it when the
// replay of a session reaches the end of what was stored when it opened the
// session, and no turn of its own runs there: a turn still open then has no
// process behind it (the one that ran it died). The turn is shown as
// interrupted; its pending requests leave the queue for the history, as
// interrupted; its tool calls that never finished are marked interrupted;
// its streaming messages are finished as they are; its subagents still
// running are orphaned (their requests leave the queue and never come back:
// reduce_subagents.go). A model with no open turn is otherwise left
// unchanged. Like Apply, it is a pure function of the model.
func (m *Model) Interrupt() {
	m.orphanChildren()
	if m.Status.Turn != TurnRunning && len(m.Approvals) == m.candidateCount() {
		return
	}
	const why = "no process is running its turn any more"
	m.dropApprovals(func(PendingApproval) bool { return true }, why)
	if m.Status.Turn != TurnRunning {
		return
	}
	m.Status.Turn, m.Status.TurnDetail = TurnInterrupted, why
	for i := range m.Timeline {
		e := &m.Timeline[i]
		if e.TurnID == m.Status.TurnID && (e.Status == ToolRunning || e.Status == ToolPending || e.Status == ToolReceiving) {
			if e.Status == ToolReceiving {
				e.Summary = e.Name // the mark goes: nothing is arriving any more
			}
			e.Status = ToolInterrupted
			m.upsertBlock(toolBlock(*e))
		}
	}
	for i := range m.Blocks {
		b := &m.Blocks[i]
		if b.Done || (b.Kind != transcript.KindAssistant && b.Kind != transcript.KindReasoning) {
			continue
		}
		b.Done = true
		if b.Kind == transcript.KindAssistant {
			b.Title = "interrupted"
		}
		m.touch(b.ID)
	}
}

// candidateCount is the number of candidates in the queue.
func (m *Model) candidateCount() int {
	n := 0
	for _, a := range m.Approvals {
		if a.Candidate != nil {
			n++
		}
	}
	return n
}

// InterruptedNow returns the requests of the latest turn that were
// interrupted, oldest first: the approvals pane shows them (not as pending)
// until the next turn starts.
func (m *Model) InterruptedNow() []ApprovalRecord {
	var out []ApprovalRecord
	for _, r := range m.History {
		if r.Outcome == OutcomeInterrupted && r.TurnID == m.Status.TurnID {
			out = append(out, r)
		}
	}
	return out
}
