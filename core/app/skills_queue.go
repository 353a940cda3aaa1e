package app

import (
	"context"
	"fmt"
	"path/filepath"

	"pincer/core/memory"
	"pincer/core/skill/learn"
)

// skillQueue is the candidate queue of core/memory as the learned-skill
// observer sees it (skillCandidates): a skill is proposed as a candidate of
// kind skill, never written; its target is the Manager's skills dir of the
// scope (memory.Paths: the one place skill targets come from).
type skillQueue struct{ m *memory.Manager }

// ProposeSkill stores p as a pending skill candidate (memory.Manager.Propose,
// which checks it again and emits candidate.proposed in p's session).
func (q skillQueue) ProposeSkill(ctx context.Context, p skillProposal) (string, error) {
	c, err := q.m.Propose(ctx, memory.Proposal{Kind: memory.KindSkill, Op: string(p.Op), Name: p.Name,
		Description: p.Description, Body: p.Text, Scope: string(p.Scope), SessionID: p.SessionID, Turn: p.Turn,
		TurnID: p.TurnID, Origin: memory.OriginSkillObserver})
	return c.ID, err
}

// SessionSkills counts the skill candidates of a session, whatever their
// status (the observer's rate limit).
func (q skillQueue) SessionSkills(ctx context.Context, sessionID string) (int, error) {
	cs, err := q.m.Store.ListCandidates(ctx, memory.Filter{Kind: memory.KindSkill, SessionID: sessionID})
	return len(cs), err
}

// PendingSkillNames are the names of the pending skill candidates that
// would be written where this project's would: the user's, and this
// project's.
func (q skillQueue) PendingSkillNames(ctx context.Context) (map[string]bool, error) {
	cs, err := q.m.Store.ListCandidates(ctx, memory.Filter{Kind: memory.KindSkill, Status: memory.StatusPending})
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, c := range cs {
		if c.Scope == memory.ScopeUser || c.Project == q.m.Project {
			out[c.Name] = true
		}
	}
	return out, nil
}

// SkillTarget is the SKILL.md a skill of name and scope is written to.
func (q skillQueue) SkillTarget(scope learn.Scope, name string) (string, error) {
	if err := learn.ValidName(name); err != nil {
		return "", err
	}
	p := q.m.Paths()
	dir := p.ProjectSkills
	if scope == learn.ScopeUser {
		dir = p.UserSkills
	}
	if dir == "" {
		return "", fmt.Errorf("no %s skills dir", scope)
	}
	return filepath.Join(dir, name, "SKILL.md"), nil
}
