package permission

import "strings"

// AlwaysRules returns the exact rules that would allow in next time: what an
// "always allow" answer saves. Nothing is wider than what was approved:
//
//   - Bash: one `Bash(<exact command>)` per simple command that needed approval,
//     assignments included and `*` escaped, so approving `git log && rm -rf x`
//     saves `Bash(git log)`-style rules only for the parts that asked (Claude Code
//     saves the approved subcommands the same way); parts already allowed, parts
//     an ask rule covers and non-literal commands get none. A write redirect that
//     needed approval gets `Edit(//abs/path)`. A line whose meaning is not in its
//     parts' words (an interpreter fed a program, xargs, find -exec, parts after
//     a cd) gets one rule for the exact whole line, or none (AlwaysOffer).
//   - File tools: `Edit(//abs/path)` (edit kind) or `Read(//abs/path)` (read
//     kind), or the tool's own name for other kinds, one per path no rule allows.
//   - WebFetch: `WebFetch(domain:HOST)`, as Claude Code offers.
//   - Any other tool (MCP tools included): the tool's name, which is exact.
//
// It returns nil when in would already be allowed, or denied (a deny wins over
// any allow rule, so saving one would change nothing).
func AlwaysRules(mode Mode, rules RuleSet, in Input) []Rule {
	return AlwaysOffer(mode, rules, in).Rules
}

// Offer is what an "always" or "session" approval of a call would save: Rules
// (exact, as AlwaysRules describes; nil when nothing can be saved) and Note, a
// sentence for the approval pane when the offer is narrower than usual ("" for an
// ordinary offer): `"always" and "session" save only this exact command: python3
// reads a program from a heredoc`, or that nothing can be saved and why.
type Offer struct {
	Rules []Rule
	Note  string
}

// AlwaysOffer returns what an "always" or "session" answer to in would save, and
// why it is narrower than per-command rules when it is (issue 10, class 10): for
// interpreters fed a program by a pipe, a heredoc, a here-string, -c or -e, for
// xargs, for find -exec, and for the parts of a line after a cd, the only rule is
// the exact whole command line (`Bash(<escaped line>)`, no wildcard), or none
// when the line is not literal. Writes to protected paths and linked files ask
// every time: nothing is saved. The Note is also appended to the reason of the
// Ask decision Evaluate returns, so the approval pane shows it.
func AlwaysOffer(mode Mode, rules RuleSet, in Input) Offer {
	mode = decidingMode(mode)
	in = normalize(in)
	if in.Tool == "Bash" && strings.TrimSpace(in.Command) != "" {
		res := evalBash(mode, rules, in)
		if res.decision.Behavior != Ask {
			return Offer{}
		}
		if res.decision.By == "protected" || res.decision.By == "bypass-guard" {
			return Offer{Note: "nothing is saved: " + res.decision.Reason}
		}
		return Offer{Rules: res.always, Note: res.note}
	}
	d := Evaluate(mode, rules, in)
	if d.Behavior != Ask {
		return Offer{}
	}
	if d.By == "protected" {
		return Offer{Note: "nothing is saved: " + d.Reason}
	}
	return Offer{Rules: alwaysOther(rules, in)}
}

// alwaysOther is AlwaysRules for a call that is not a Bash command and asks.
func alwaysOther(rules RuleSet, in Input) []Rule {
	if _, ok := firstAny(rules.Ask, in); ok {
		return nil // an ask rule beats every allow rule
	}
	switch {
	case in.Tool == "WebFetch":
		if host := urlHost(in.URL); host != "" {
			return []Rule{{Tool: "WebFetch", Specifier: "domain:" + host}}
		}
		return nil
	case len(in.Paths) > 0 && (in.Kind == KindEdit || in.Kind == KindRead):
		tool := "Edit"
		if in.Kind == KindRead {
			tool = "Read"
		}
		var out []Rule
		for _, p := range in.Paths {
			one := in
			one.Paths = []string{p}
			if _, ok := firstAny(withoutProject(rules.Allow), one); ok {
				continue // already the person's (a project's rule may not hold outside the workspace)
			}
			out = append(out, Rule{Tool: tool, Specifier: escapePath(p)})
		}
		return out
	}
	return []Rule{{Tool: in.Tool}}
}

// HiddenInPlan reports whether a tool of kind must be hidden from the model in
// plan mode: tools that change files, and tools of kinds pincer does not know
// (an MCP tool that may write). Bash stays visible (read-only commands run in plan
// mode), and so do reads and fetches.
func HiddenInPlan(kind string) bool {
	switch kind {
	case KindRead, KindExecute, KindFetch:
		return false
	}
	return true
}
