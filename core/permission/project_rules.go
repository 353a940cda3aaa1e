package permission

import (
	"slices"
	"strings"
)

// reachesOut reports whether a file tool call names a path outside the
// workspace roots — as written, or with symlinks resolved (a link in the
// workspace that leads out is outside) — or a credential path (readsSecret).
// A call without paths reaches nothing.
func reachesOut(in Input) bool {
	if len(in.Paths) == 0 {
		return false
	}
	roots := in.roots()
	resolved := resolveAll(roots, in.resolvePath)
	for _, p := range in.Paths {
		if !insideRoots(p, in.resolvePath(p), roots, resolved) {
			return true
		}
	}
	return readsSecret(in)
}

// withoutProject returns the rules not read from a workspace file (Rule.Project):
// the ones that may allow a call reaching outside the workspace.
func withoutProject(rules []Rule) []Rule {
	out := make([]Rule, 0, len(rules))
	for _, r := range rules {
		if !r.Project {
			out = append(out, r)
		}
	}
	return out
}

// carriesCode reports whether an argument of words holds white space or a
// shell metacharacter: a value another program runs as a command line (`git
// -c alias.x='!cat ../y'`, `--upload-pack='…'`, `tar --to-command='…'`),
// whose reach no path word shows, so a project's rule does not allow it (red
// team r18, third round).
func carriesCode(words []string) bool {
	for _, w := range words[min(1, len(words)):] {
		if strings.ContainsAny(w, " \t\n;|&$`!<>()\\'\"") {
			return true
		}
	}
	return false
}

// projectOnly marks d, the decision on the Bash command of in, ProjectOnly
// when it allows the command and, without the project's allow rules, the
// person's rules and the mode would not: a repository's rule alone lets it
// run. Its reason says so, for the audit trail.
func projectOnly(mode Mode, rules RuleSet, in Input, d Decision) Decision {
	if d.Behavior != Allow || !slices.ContainsFunc(rules.Allow, func(r Rule) bool { return r.Project }) {
		return d
	}
	person := rules
	person.Allow = withoutProject(rules.Allow)
	if evalBash(mode, person, in).decision.Behavior == Allow {
		return d
	}
	d.ProjectOnly = true
	d.Reason += " (a repository's rule alone: the command's reads are confined to the workspace)"
	return d
}
