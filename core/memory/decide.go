package memory

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"pincer/core/event"
	"pincer/persist"
)

// Decide records a person's decision d on candidate id, made in session
// sessionID ("" on the command line, which may decide any session's
// candidate; a front end passes its session, and a candidate of another
// session is refused with persist.ErrWrongSession). The decision is one
// compare-and-set in the store: a second one fails with persist.ErrDecided
// and changes nothing. An acceptance is then written (Apply); when the write
// fails the candidate stays accepted and unapplied, the error says why, and
// Repair writes it later. The decision and the write are in the audit trail
// and candidate.decided is emitted in the candidate's session.
func (m *Manager) Decide(ctx context.Context, sessionID, id string, d Decision) (Candidate, error) {
	c, err := m.Store.GetCandidate(ctx, id)
	if err != nil {
		return Candidate{}, err
	}
	pd, err := m.decisionOf(c, sessionID, d)
	if err != nil {
		return c, err
	}
	c, err = m.Store.DecideCandidate(ctx, id, pd)
	if err != nil {
		return c, err
	}
	m.audit(ctx, c, decisionAudit(c))
	var applyErr error
	if c.Status == StatusAccepted {
		c, applyErr = m.Apply(ctx, id)
	}
	data := event.CandidateDecidedData{ID: c.ID, Kind: c.Kind, Status: c.Status, Edited: c.Edited, By: c.DecidedBy,
		Target: c.Target, Applied: !c.AppliedAt.IsZero()}
	if applyErr != nil {
		data.Error = applyErr.Error()
	}
	m.emit(ctx, c, event.CandidateDecided, data)
	return c, applyErr
}

// decisionOf is d as the store's decision on c: for AcceptEdited the new
// file text, checked as a proposal's would be.
func (m *Manager) decisionOf(c Candidate, sessionID string, d Decision) (persist.CandidateDecision, error) {
	by := d.By
	if by == "" {
		by = "user"
	}
	pd := persist.CandidateDecision{SessionID: sessionID, By: by, Reason: OneLine(d.Reason, MaxDescriptionLen)}
	switch d.Action {
	case Accept:
		pd.Status = StatusAccepted
	case Reject:
		pd.Status = StatusRejected
	case AcceptEdited:
		if c.Op == OpRemove {
			return pd, errors.New("a removal has no text to edit: accept or reject it")
		}
		text, err := m.editedContent(c, d.Text)
		if err != nil {
			return pd, fmt.Errorf("edited text: %w", err)
		}
		pd.Status, pd.Content = StatusAccepted, &text
	default:
		return pd, fmt.Errorf("decision %q (accept, accept-edited or reject)", d.Action)
	}
	return pd, nil
}

// editedContent is the file an edit of c writes: for a skill the whole
// SKILL.md (its name kept); for a memory a whole file with frontmatter
// (type, name kept, description one line) or a new body under c's
// frontmatter.
func (m *Manager) editedContent(c Candidate, text string) (string, error) {
	text = PlainText(text)
	if c.Kind == KindSkill {
		out, _, err := skillContent(c.Name, text)
		return out, err
	}
	if !strings.HasPrefix(strings.TrimLeft(text, "\ufeff \t\r\n"), "---") {
		return m.memoryContent(c, text)
	}
	f, err := ParseFile(c.Target, []byte(text))
	if err != nil {
		return "", err
	}
	if f.Name != c.Name {
		return "", fmt.Errorf("the edit renames %q to %q: propose the new name instead", c.Name, f.Name)
	}
	if len(text) > MaxContentBytes {
		return "", fmt.Errorf("memory of %d bytes is over the %d-byte limit", len(text), MaxContentBytes)
	}
	if strings.TrimSpace(f.Body) == "" {
		return "", errNoBody
	}
	return text, nil
}

// decisionAudit is the audit entry of c's decision.
func decisionAudit(c Candidate) persist.AuditEntry {
	e := persist.AuditEntry{Decision: "deny", Summary: c.Op + " " + c.Target + " (candidate " + c.ID + ")",
		By: c.DecidedBy, Scope: "once", Reason: c.Reason}
	if c.Status == StatusAccepted {
		e.Decision = "allow"
		if c.Edited {
			e.Summary += ", edited"
		}
	}
	return e
}

// audit appends e for c (its session, tool Memory or Skill).
func (m *Manager) audit(ctx context.Context, c Candidate, e persist.AuditEntry) {
	if c.SessionID == "" {
		return
	}
	e.SessionID, e.TurnID, e.Tool = c.SessionID, c.TurnID, auditTool(c.Kind)
	_ = m.Store.AppendAudit(context.WithoutCancel(ctx), e)
}

// auditTool is the audit trail's tool name of a candidate kind.
func auditTool(kind string) string {
	if kind == KindSkill {
		return "Skill"
	}
	return "Memory"
}
