package permission

import (
	"fmt"
	"strings"
	"time"

	"pincer/persist"
)

// Session rules and the audit trail, as the Store keeps them (persist). The
// conversion lives here so the store stays ignorant of rule syntax.

// SessionSource is the Source of rules granted for one session.
const SessionSource = "session"

// SessionRuleStrings renders rs as the store keeps session rules: canonical rule
// strings with a behavior prefix, e.g. "allow:Bash(npm test)".
func SessionRuleStrings(rs RuleSet) []string {
	out := make([]string, 0, rs.Len())
	for _, l := range []struct {
		b     Behavior
		rules []Rule
	}{{Allow, rs.Allow}, {Ask, rs.Ask}, {Deny, rs.Deny}} {
		for _, r := range l.rules {
			out = append(out, string(l.b)+":"+r.String())
		}
	}
	return out
}

// ParseSessionRules reads strings SessionRuleStrings wrote, with Source "session".
// Bad entries are left out and reported, one error each.
func ParseSessionRules(ss []string) (RuleSet, []error) {
	var rs RuleSet
	var errs []error
	for _, s := range ss {
		b, text, ok := strings.Cut(s, ":")
		beh := Behavior(b)
		if !ok || (beh != Allow && beh != Ask && beh != Deny) {
			errs = append(errs, fmt.Errorf("session rule %q: want allow:, ask: or deny: before the rule", s))
			continue
		}
		r, err := ParseRule(text)
		if err != nil {
			errs = append(errs, fmt.Errorf("session rule: %w", err))
			continue
		}
		r.Source = SessionSource
		rs = rs.Add(beh, r)
	}
	return rs, errs
}

// NewAuditEntry is the audit record of decision d on in, for the tool call
// toolCallID of a session's turn, at t (zero: the store's clock).
func NewAuditEntry(sessionID, turnID, toolCallID string, in Input, d Decision, t time.Time) persist.AuditEntry {
	summary := in.Summary
	if summary == "" {
		summary = in.Command
	}
	return persist.AuditEntry{
		SessionID: sessionID, TurnID: turnID, ToolCallID: toolCallID,
		Tool: in.Tool, Summary: shorten(summary), Decision: string(d.Behavior),
		Rule: d.Rule, By: d.By, Reason: d.Reason, Time: t,
	}
}
