package permission

// AlwaysRules returns the exact rules that would allow in next time: what an
// "always allow" answer saves. Nothing is wider than what was approved:
//
//   - Bash: one `Bash(<exact command>)` per simple command that needed approval,
//     assignments included and `*` escaped, so approving `git log && rm -rf x`
//     saves `Bash(git log)`-style rules only for the parts that asked (Claude Code
//     saves the approved subcommands the same way); parts already allowed, parts
//     an ask rule covers and non-literal commands get none. A write redirect that
//     needed approval gets `Edit(//abs/path)`.
//   - File tools: `Edit(//abs/path)` (edit kind) or `Read(//abs/path)` (read
//     kind), or the tool's own name for other kinds, one per path no rule allows.
//   - WebFetch: `WebFetch(domain:HOST)`, as Claude Code offers.
//   - Any other tool (MCP tools included): the tool's name, which is exact.
//
// It returns nil when in would already be allowed, or denied (a deny wins over
// any allow rule, so saving one would change nothing).
func AlwaysRules(mode Mode, rules RuleSet, in Input) []Rule {
	in = normalize(in)
	if in.Tool == "Bash" && in.Command != "" {
		res := evalBash(mode, rules, in)
		if res.decision.Behavior != Ask {
			return nil
		}
		return res.always
	}
	if Evaluate(mode, rules, in).Behavior != Ask {
		return nil
	}
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
			if _, ok := firstAny(rules.Allow, one); ok {
				continue
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
