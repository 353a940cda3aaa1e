package app

import (
	"fmt"
	"regexp"
	"strings"

	"pincer/core/config"
	"pincer/core/permission"
	"pincer/core/subagent"
	"pincer/tools"
)

// Failing closed on configuration (issue 10, class 13). core/config reads the
// config and settings files, and it and each table's consumer (permission rules,
// hooks, the sandbox policy) report problems as *config.FileError; the ones that
// could drop a deny rule, an ask rule, a hook or a sandbox setting are fatal. `pincer run` stops
// with exit code 2 and one "FILE:LINE: what is wrong" line per problem; the
// workbench opens, shows the problems and denies every tool call until the
// files are fixed and it is restarted. pincer never runs with fewer deny rules
// than the user wrote.

// ConfigFailure is the error of a run stopped by configuration problems; runMain
// exits 2 for it.
type ConfigFailure struct{ problems []string }

// Error is the first problem, then each other one on its own "pincer: " line,
// then what to do.
func (e *ConfigFailure) Error() string {
	var b strings.Builder
	for i, p := range e.problems {
		if i > 0 {
			b.WriteString("\npincer: ")
		}
		b.WriteString(p)
	}
	b.WriteString("\npincer: fix the configuration above; nothing was run (pincer does not run with rules, hooks or sandbox settings it could not read)")
	return b.String()
}

// configReport collects the problems of every reader.
type configReport struct {
	fatal    []string
	warnings []string
}

// add adds problems of the configuration (each a *config.FileError, or any
// error from a reader): fatal unless config.Fatal lets them pass.
func (r *configReport) add(lists ...[]error) {
	for _, errs := range lists {
		fatal := config.Fatal(errs)
		for _, e := range errs {
			if contains(fatal, e) {
				r.fatal = append(r.fatal, e.Error())
			} else {
				r.warnings = append(r.warnings, e.Error())
			}
		}
	}
}

// failure is the *ConfigFailure for the fatal problems, nil when there are none.
// The same file often fails in several readers; each message is kept once.
func (r *configReport) failure() error {
	if len(r.fatal) == 0 {
		return nil
	}
	return &ConfigFailure{problems: dedupe(r.fatal)}
}

// denyAll returns rules that deny every tool of registry, naming the problems
// (each FILE:LINE: what) as the rule's source and as its decision's reason
// (Rule.Reason), so that the model and the person see why: the
// workbench's way of keeping tools from running while the configuration is
// broken. Deny rules hold in every permission mode.
func denyAll(rules permission.RuleSet, registry *tools.Registry, problems []string) permission.RuleSet {
	what := strings.Join(dedupe(problems), "; ")
	src := "a broken configuration (" + what + "): fix it and restart pincer"
	var deny []permission.Rule
	names := append(registry.Names(), subagent.NestingTools...) // the agent's own tools too: Agent, Task, the team tools
	names = append(names, webToolNames...)                      // registered after the model is chosen (web.go)
	reason := "every tool is denied while pincer's configuration is broken (" + what + "); the person must fix the file and restart pincer"
	for _, name := range names {
		deny = append(deny, permission.Rule{Tool: name, Source: src, Reason: reason})
	}
	return rules.Add(permission.Deny, deny...)
}

func contains(list []error, e error) bool {
	for _, x := range list {
		if x == e {
			return true
		}
	}
	return false
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// dedupe keeps the first message of each FILE:LINE place (several readers
// parse the same file and fail on the same line), and every message without
// one.
func dedupe(list []string) []string {
	var out []string
	places := map[string]bool{}
	for _, s := range list {
		if containsString(out, s) {
			continue
		}
		if m := placeRE.FindStringSubmatch(strings.TrimPrefix(s, "hooks: ")); m != nil {
			if places[m[1]] {
				continue
			}
			places[m[1]] = true
		}
		out = append(out, s)
	}
	return out
}

// placeRE finds the "FILE:LINE" a message starts with.
var placeRE = regexp.MustCompile(`^(\S+?:\d+):`)

// String renders the report's fatal problems for a notice.
func (r *configReport) String() string {
	return fmt.Sprintf("%d configuration problem(s): %s", len(dedupe(r.fatal)), strings.Join(dedupe(r.fatal), "; "))
}
