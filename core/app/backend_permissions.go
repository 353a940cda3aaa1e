package app

import (
	"context"

	"pincer/core/permission"
)

// PermissionRules are the rules a turn of sessionID starting now decides by
// (agent.Rules on the agent that runs it): the files' and flags' with their
// Source, then the session's; errs are session rules that no longer parse
// or a store error.
func (b *Backend) PermissionRules(ctx context.Context, sessionID string) (permission.RuleSet, []error) {
	return b.agentFor(sessionID).Rules(ctx, sessionID)
}

// AddSessionRule adds a rule of behavior ("allow", "ask", "deny") to
// sessionID's own rules, from its next turn (agent.AddSessionRule): the
// person's /permissions.
func (b *Backend) AddSessionRule(ctx context.Context, sessionID, behavior, rule string) (permission.Rule, error) {
	return b.agentFor(sessionID).AddSessionRule(ctx, sessionID, permission.Behavior(behavior), rule)
}

// RemoveSessionRule takes a rule of behavior out of sessionID's own rules
// (agent.RemoveSessionRule; agent.ErrNoSuchSessionRule when it holds none).
func (b *Backend) RemoveSessionRule(ctx context.Context, sessionID, behavior, rule string) (permission.Rule, error) {
	return b.agentFor(sessionID).RemoveSessionRule(ctx, sessionID, permission.Behavior(behavior), rule)
}
