package permission

import (
	"fmt"

	"pincer/core/config"
)

// RulesFrom parses the permission tables core/config read (Sources.Permissions:
// user config, .pincer/config.toml, .pincer/settings.local.toml,
// .claude/settings.json, .claude/settings.local.json, in that order) into one
// RuleSet, each rule's Source the table's file name. A rule that does not parse
// is a *config.FileError at the line and column of its string: fatal — pincer
// must not run with fewer deny or ask rules than the user wrote (issue 10, class
// 13) — except in an allow list (Warning set), whose loss only takes a
// permission away. Session rules and --allowed-tools / --disallowed-tools
// (ParseRuleList) are merged on top by the caller.
func RulesFrom(tables []config.PermissionTable) (RuleSet, []error) {
	var rs RuleSet
	var errs []error
	for _, t := range tables {
		for _, l := range []struct {
			b    Behavior
			vals []config.Value
		}{{Allow, t.Allow}, {Ask, t.Ask}, {Deny, t.Deny}} {
			for _, v := range l.vals {
				r, err := ParseRule(v.Text)
				if err != nil {
					errs = append(errs, &config.FileError{Path: t.Path, Line: v.Line, Column: v.Column,
						Key: "permissions." + string(l.b), Err: fmt.Errorf("permissions.%s: %w", l.b, err), Warning: l.b == Allow})
					continue
				}
				r.Source, r.Project = t.Name, t.Project
				rs = rs.Add(l.b, r)
			}
		}
	}
	return rs, errs
}
