package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"pincer/core/permission"
)

// Rules returns the permission rules a turn of sessionID starting now
// decides by: the configuration's and flags' (each with the file it came
// from as Source) followed by the session's stored ones (Source "session":
// approvals "for this session" and what /permissions added). A session
// rule that no longer parses is left out and reported in errs.
func (a *Agent) Rules(ctx context.Context, sessionID string) (permission.RuleSet, []error) {
	rules := a.cfg.Rules
	stored, err := a.cfg.Store.GetSessionRules(ctx, sessionID)
	if err != nil {
		return rules, []error{err}
	}
	session, errs := permission.ParseSessionRules(stored)
	return rules.Merge(session), errs
}

// ErrNoSuchSessionRule is RemoveSessionRule's error for a rule the session
// does not hold.
var ErrNoSuchSessionRule = errors.New("the session holds no such rule")

// AddSessionRule adds rule (Claude Code's syntax: `Bash(go test:*)`,
// `Read(~/notes/**)`, `WebFetch(domain:go.dev)`) to sessionID's rules of
// behavior b, as a person's /permissions does: it counts from the session's
// next turn, as the person's own rule, and ends with the session (the files
// keep the lasting ones). It returns the rule as parsed; a rule that does not
// parse, or a behavior other than allow, ask or deny, is an error and
// nothing is stored. Adding a rule the session holds already is no error.
func (a *Agent) AddSessionRule(ctx context.Context, sessionID string, b permission.Behavior, rule string) (permission.Rule, error) {
	r, err := parseSessionRule(b, rule)
	if err != nil {
		return r, err
	}
	return r, a.editSessionRules(ctx, sessionID, func(rs permission.RuleSet) (permission.RuleSet, error) {
		if slices.ContainsFunc(behaviorList(rs, b), func(x permission.Rule) bool { return x.String() == r.String() }) {
			return rs, nil
		}
		return rs.Add(b, r), nil
	})
}

// RemoveSessionRule takes rule out of sessionID's rules of behavior b (from
// its next turn); ErrNoSuchSessionRule when the session holds none such (a
// configuration file's rule is changed in its file, not here).
func (a *Agent) RemoveSessionRule(ctx context.Context, sessionID string, b permission.Behavior, rule string) (permission.Rule, error) {
	r, err := parseSessionRule(b, rule)
	if err != nil {
		return r, err
	}
	return r, a.editSessionRules(ctx, sessionID, func(rs permission.RuleSet) (permission.RuleSet, error) {
		var kept permission.RuleSet
		found := false
		for _, l := range []permission.Behavior{permission.Allow, permission.Ask, permission.Deny} {
			for _, x := range behaviorList(rs, l) {
				if l == b && x.String() == r.String() {
					found = true
					continue
				}
				kept = kept.Add(l, x)
			}
		}
		if !found {
			return rs, ErrNoSuchSessionRule
		}
		return kept, nil
	})
}

// editSessionRules reads sessionID's stored rules, applies edit and stores
// the result, one edit at a time (an approval's remember takes the same lock).
func (a *Agent) editSessionRules(ctx context.Context, sessionID string, edit func(permission.RuleSet) (permission.RuleSet, error)) error {
	a.sessionRules.Lock()
	defer a.sessionRules.Unlock()
	stored, err := a.cfg.Store.GetSessionRules(ctx, sessionID)
	if err != nil {
		return err
	}
	session, _ := permission.ParseSessionRules(stored) // a broken entry is dropped, as loadRules drops it
	next, err := edit(session)
	if err != nil {
		return err
	}
	return a.cfg.Store.PutSessionRules(ctx, sessionID, permission.SessionRuleStrings(next))
}

// parseSessionRule parses rule for behavior b, with Source "session".
func parseSessionRule(b permission.Behavior, rule string) (permission.Rule, error) {
	if b != permission.Allow && b != permission.Ask && b != permission.Deny {
		return permission.Rule{}, fmt.Errorf("%q is no rule list: want allow, ask or deny", b)
	}
	r, err := permission.ParseRule(rule)
	if err != nil {
		return r, err
	}
	r.Source = permission.SessionSource
	return r, nil
}

// behaviorList is rs's list of behavior b.
func behaviorList(rs permission.RuleSet, b permission.Behavior) []permission.Rule {
	switch b {
	case permission.Allow:
		return rs.Allow
	case permission.Ask:
		return rs.Ask
	}
	return rs.Deny
}
