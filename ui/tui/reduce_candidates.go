package tui

import (
	"path/filepath"

	"pincer/core/event"
)

// Memory and skill candidates in the approval queue (issue 16). A
// candidate.proposed event of the session puts the candidate in the queue
// beside the tool calls' requests (a PendingApproval with Candidate set,
// keyed candidateKey(ID)); the session's candidate.decided — whoever decided
// it: this workbench, `pincer memory approve`, another window — takes it out
// and into the history. Unlike a tool call's request a candidate outlives its
// turn: it waits in the store until a person decides it, so no turn's end
// and no interrupted process drops it (dropApprovals keeps it).

// candidatePrefix starts the queue key of a candidate (never a permission
// request's ID, which core makes).
const candidatePrefix = "candidate:"

// candidateKey is the queue key of candidate id.
func candidateKey(id string) string { return candidatePrefix + id }

// candidateProposed queues a proposed candidate (once per ID).
func (m *Model) candidateProposed(ev event.Event, d event.CandidateProposedData) {
	key := candidateKey(d.ID)
	if _, dup := m.Approval(key); dup || m.record(key) != nil {
		return
	}
	cd := d
	a := PendingApproval{RequestID: key, Name: candidateToolName(d.Kind), Summary: candidateSummary(d),
		Reason: candidateReason(d), Sequence: ev.Sequence, Candidate: &cd}
	m.Approvals = append(m.Approvals, a)
	m.addRecord(a)
}

// candidateDecided takes a decided candidate out of the queue into the
// history: accepted as an allow, rejected as a deny (By who decided).
func (m *Model) candidateDecided(d event.CandidateDecidedData) {
	key := candidateKey(d.ID)
	m.removeApproval(key)
	r := m.record(key)
	if r == nil {
		return
	}
	r.Outcome, r.By, r.Scope, r.Detail = OutcomeDeny, d.By, "", ""
	if d.Status == "accepted" {
		r.Outcome = OutcomeAllow
		if d.Edited {
			r.Detail = "edited"
		}
		if d.Error != "" {
			r.Detail = "not written yet: " + d.Error
		}
	}
}

// candidateToolName is the queue's name of a candidate kind: "Memory" or
// "Skill" (the audit trail's tool names, core/memory).
func candidateToolName(kind string) string {
	if kind == "skill" {
		return "Skill"
	}
	return "Memory"
}

// candidateSummary is a candidate's queue row: its kind, what it does, its
// type and name and the file it writes, "Memory: add feedback
// “tabs-and-pnpm” → tabs-and-pnpm.md".
func candidateSummary(d event.CandidateProposedData) string {
	s := candidateToolName(d.Kind) + ": " + d.Op + " "
	if d.Type != "" {
		s += d.Type + " "
	}
	return s + "“" + d.Name + "” → " + targetShort(d.Target)
}

// targetShort is a target path as a row shows it: its file, with the skill's
// directory for a SKILL.md ("lint/SKILL.md").
func targetShort(target string) string {
	base := filepath.Base(target)
	if base == "SKILL.md" {
		return filepath.Join(filepath.Base(filepath.Dir(target)), base)
	}
	return base
}

// candidateReason is the diff pane's "why it asks" line of a candidate: who
// proposed it, from which turn, in which scope.
func candidateReason(d event.CandidateProposedData) string {
	s := "proposed by " + d.Origin
	if d.Turn > 0 {
		s += " in turn " + itoa(d.Turn)
	}
	return s + " (" + d.Scope + " scope); nothing is written unless you accept it"
}

// candidateOutcome is a decided candidate's history row: its icon, style
// token and "accepted, edited" or "rejected".
func candidateOutcome(r ApprovalRecord) (icon, token, detail string) {
	if r.Outcome != OutcomeAllow {
		return "✗", "error", "rejected"
	}
	detail = "accepted"
	if r.Detail != "" {
		detail += ", " + r.Detail
	}
	return "✓", "success", detail
}
