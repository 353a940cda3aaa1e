package permission

import (
	"net/url"
	"strings"
)

// Which rules apply to which call, for every tool but Bash commands (those are
// matched per simple command, evaluate_bash.go).
//
// A rule applies to a call of the tool it names, and also:
//   - Edit and Write rules (and MultiEdit, NotebookEdit) to every tool of kind
//     edit — Claude Code: "Edit rules apply to all built-in tools that edit files";
//   - Read rules to every tool of kind read (Grep, Glob, ...) — Claude Code applies
//     them "best effort" to the tools that read files;
//   - mcp__server and mcp__server__* to every tool mcp__server__<name>;
//   - Task (the Agent tool's older name) to Agent; Agent(TYPE) and Task(TYPE)
//     to an Agent call of subagent type TYPE (any case).
//
// Then the specifier, if any, must match: WebFetch(domain:HOST) the URL's host
// exactly (case-insensitive; as in Claude Code, a subdomain is another domain —
// write domain:*.example.com to opt into subdomains); a path pattern the call's
// Paths — any of them for deny and ask, every one (each by some rule) for allow. A
// call with no paths is not matched by a path pattern.

// editTools are rule names that cover every tool of kind edit.
var editTools = map[string]bool{"Edit": true, "Write": true, "MultiEdit": true, "NotebookEdit": true}

// appliesTo reports whether r names in's tool (before its specifier is looked at).
func appliesTo(r Rule, in Input) bool {
	switch {
	case r.Tool == in.Tool:
		return true
	case r.Tool == "Task":
		return in.Tool == "Agent" // the Agent tool's older name, as Claude Code's rules still write it
	case editTools[r.Tool]:
		return in.Kind == KindEdit
	case r.Tool == "Read":
		return in.Kind == KindRead && in.Tool != "WebFetch"
	case strings.HasPrefix(r.Tool, "mcp__") && strings.HasPrefix(in.Tool, "mcp__"):
		server := strings.TrimSuffix(strings.TrimPrefix(r.Tool, "mcp__"), "__*")
		if server == "" || strings.Contains(server, "__") {
			return false // a different tool of some server
		}
		return strings.HasPrefix(in.Tool, "mcp__"+server+"__")
	}
	return false
}

// matchesAny reports whether r matches the call; with paths, any path will do.
func matchesAny(r Rule, in Input) bool {
	if !appliesTo(r, in) {
		return false
	}
	if r.Specifier == "" {
		return true
	}
	if r.Tool == "WebFetch" {
		return matchDomain(r.Specifier, in.URL)
	}
	if in.Tool == "Agent" {
		return in.AgentType != "" && strings.EqualFold(r.Specifier, in.AgentType)
	}
	if r.Tool == "Bash" || strings.HasPrefix(r.Tool, "mcp__") {
		return false // Bash commands are matched in evaluate_bash.go
	}
	env := envOf(in)
	for _, p := range in.Paths {
		if matchPath(r.Specifier, p, env) {
			return true
		}
	}
	return false
}

// firstAny returns the first rule of rules matching the call (any path).
func firstAny(rules []Rule, in Input) (Rule, bool) {
	for _, r := range rules {
		if matchesAny(r, in) {
			return r, true
		}
	}
	return Rule{}, false
}

// allowedAll reports whether rules allow the whole call: a rule without a
// specifier, or every path (URL) matched by some rule. It returns the first rule
// used.
func allowedAll(rules []Rule, in Input) (Rule, bool) {
	if len(in.Paths) <= 1 {
		return firstAny(rules, in)
	}
	var first Rule
	for i, p := range in.Paths {
		one := in
		one.Paths = []string{p}
		r, ok := firstAny(rules, one)
		if !ok {
			return Rule{}, false
		}
		if i == 0 {
			first = r
		}
	}
	return first, true
}

// matchDomain reports whether the URL's host is the domain:HOST of spec;
// domain:*.HOST matches the subdomains of HOST (not HOST itself).
func matchDomain(spec, rawURL string) bool {
	want, ok := strings.CutPrefix(spec, "domain:")
	if !ok {
		return false
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	want = strings.ToLower(want)
	if host == "" {
		return false
	}
	if sub, ok := strings.CutPrefix(want, "*."); ok {
		return strings.HasSuffix(host, "."+sub)
	}
	return host == want
}

// urlHost is the host of a URL, "" if it has none.
func urlHost(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}
