package app

import (
	"os"

	"pincer/core/permission"
)

// loadRules merges the permission rules of the config files with
// --allowed-tools and --disallowed-tools (every use of either adds its rules; a
// bad rule there is a usage error). The files' problems are returned in
// fileErrs for the caller's configReport: a fatal one stops pincer.
func loadRules(workspace string, allowed, disallowed []string) (rules permission.RuleSet, fileErrs []error, err error) {
	rules, fileErrs = permission.LoadRules(workspace, os.Getenv("PINCER_HOME"))
	for _, v := range allowed {
		allow, err := permission.ParseRuleList(v, "--allowed-tools")
		if err != nil {
			return rules, fileErrs, usagef("%v", err) // the error names the flag
		}
		rules = rules.Add(permission.Allow, allow...)
	}
	for _, v := range disallowed {
		deny, err := permission.ParseRuleList(v, "--disallowed-tools")
		if err != nil {
			return rules, fileErrs, usagef("%v", err)
		}
		rules = rules.Add(permission.Deny, deny...)
	}
	return rules, fileErrs, nil
}
