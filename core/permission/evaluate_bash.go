package permission

import (
	"fmt"
	"strings"

	"pincer/core/permission/shell"
)

// bashResult is the decision on a Bash command and the exact rules that would
// allow the parts that needed approval (for AlwaysRules).
type bashResult struct {
	decision Decision
	always   []Rule
	note     string // why always may save only the exact line, or nothing
}

// evalBash decides a Bash command, in this order:
//
//  1. Unparseable input: deny and ask rules on the raw text, else ask (denied in
//     plan, dontAsk and bypassPermissions: the hard deny list cannot be checked).
//  2. The hard deny list (shell.HardDeny), in every mode.
//  3. Deny rules on the raw text and on every part: Bash rules on each command's
//     forms (through wrappers, program paths and git's global options; a part
//     whose program is not literal or comes from standard input, or that
//     evaluates or defines code deny rules cannot see (bash_code.go), matches
//     every Bash rule), Edit rules on redirect targets and file-op arguments, Read rules
//     on the arguments of read-only commands.
//  4. Plan mode: any command outside the read-only set, or any write, is denied.
//  5. With Bash deny rules, a part that runs code not in its words (python3 -c,
//     node -e, a heredoc, xargs, make -f/--eval) asks: it may do what a deny rule forbids.
//  6. Protected paths: a redirect target, file-op argument or path argument of a
//     command that is not read-only that is protected, or git writing its own
//     configuration (git config, init, submodule, ...), asks in every mode.
//  7. Ask rules, the same way as deny rules.
//  8. Each command must be allowed by an allow rule (matching only literal
//     commands), the read-only set with every path argument inside the
//     workspace, or the mode (acceptEdits: file ops on workspace paths); each
//     write target by an Edit allow rule or acceptEdits inside the workspace.
//     When the analysis found risks (substitutions, non-literal command names,
//     ...), only a rule or the read-only set will do. Anything left needs
//     approval: the mode's default decides (ask; deny in dontAsk and, except
//     for reads outside the workspace, in plan; allow in bypassPermissions,
//     except forced deletes outside the workspace and writes to targets that
//     cannot be resolved, which ask).
func evalBash(mode Mode, rules RuleSet, in Input) bashResult {
	raw := strings.TrimSpace(in.Command)
	a := shell.Analyze(raw)
	if a.Err != nil {
		return bashResult{decision: unparseable(mode, rules, raw, a.Err)}
	}
	if reason, denied := shell.HardDeny(a, shell.Env{Home: in.Home, Workspace: in.Workspace, Cwd: in.Cwd}); denied {
		return bashResult{decision: Decision{Behavior: Deny, Reason: "the command is on the hard deny list, which applies in every mode: " + reason, By: "hard-deny"}}
	}
	parts := buildParts(a, in)
	if d, ok := restrictive(Deny, mode, rules.Deny, raw, parts, in); ok {
		return bashResult{decision: d}
	}
	if mode == ModePlan {
		for _, p := range parts {
			if !p.readOnly || len(p.writes) > 0 {
				return bashResult{decision: Decision{Behavior: Deny, Reason: fmt.Sprintf(
					"plan mode is read-only: `%s` is not a read-only command; present the plan instead of running it", shorten(p.full)), By: byMode(mode)}}
			}
		}
	}
	if d, ok := inlineAgainstDeny(mode, rules.Deny, parts); ok {
		return bashResult{decision: d}
	}
	if d, ok := protectedWrites(mode, parts, in); ok {
		return bashResult{decision: d}
	}
	if d, ok := readsPastDeny(mode, rules, parts, in); ok { // readdeny.go
		return bashResult{decision: d}
	}
	classify(mode, rules.Allow, raw, parts, in, len(a.Risks) > 0)
	always, note := alwaysOf(raw, a, parts, rules.Ask, in)
	if d, ok := restrictive(Ask, mode, rules.Ask, raw, parts, in); ok {
		return bashResult{decision: d, always: always, note: note}
	}
	d := combine(mode, parts, a.Risks, in)
	if d.Behavior == Ask && note == "" {
		note = partialAlways(mode, rules, in, always)
	}
	if d.Behavior == Ask && note != "" {
		d.Reason += "; " + note
	}
	return bashResult{decision: d, always: always, note: note}
}

// partialAlways is the note of an "always" offer that would not make the same
// line run without asking — rules saved for its literal parts, while a part
// with a variable or a loop header cannot be one (new user r24 #1: `for i in
// $(seq 1 1000); do echo tick $i; sleep 1; done` saved Bash(seq 1 1000) and
// Bash(sleep 1), and the same line asked again): "" when the rules cover the
// line or there are none. It decides the line again with the rules added
// (partial notes are not looked for then).
func partialAlways(mode Mode, rules RuleSet, in Input, always []Rule) string {
	if len(always) == 0 || len(always) > 16 {
		return ""
	}
	with := rules
	for _, r := range always {
		with = with.Add(Allow, r)
	}
	raw := strings.TrimSpace(in.Command)
	a := shell.Analyze(raw)
	if a.Err != nil {
		return ""
	}
	parts := buildParts(a, in)
	classify(mode, with.Allow, raw, parts, in, len(a.Risks) > 0)
	if combine(mode, parts, a.Risks, in).Behavior != Ask {
		return ""
	}
	names := make([]string, len(always))
	for i, r := range always {
		names[i] = r.String()
	}
	return `"always" and "session" save only ` + strings.Join(names, ", ") + ": the rest of this line cannot be an exact rule, so it will ask again"
}

// unparseable decides a command the shell analysis could not parse.
func unparseable(mode Mode, rules RuleSet, raw string, err error) Decision {
	if r, ok := firstCommandRule(rules.Deny, raw); ok {
		return ruleDecision(Deny, r, fmt.Sprintf("the command is denied by the rule %s", r))
	}
	if r, ok := firstCommandRule(rules.Ask, raw); ok {
		return askFor(mode, ruleDecision(Ask, r, fmt.Sprintf("the command needs approval: the rule %s asks for it", r)))
	}
	reason := fmt.Sprintf("the command could not be parsed (%v), so it cannot be checked", err)
	switch mode {
	case ModeDefault, ModeAcceptEdits:
		return Decision{Behavior: Ask, Reason: reason + " and needs approval", By: byMode(mode)}
	}
	return Decision{Behavior: Deny, Reason: reason + "; rewrite it in plain shell syntax", By: byMode(mode)}
}

// restrictive applies the deny or ask rules (b) to the raw text and every part;
// an ask goes through askFor.
func restrictive(b Behavior, mode Mode, rules []Rule, raw string, parts []bashPart, in Input) (Decision, bool) {
	verb := map[Behavior]string{Deny: "is denied by", Ask: "needs approval: it matches"}[b]
	found := func(r Rule, what string) (Decision, bool) {
		d := ruleDecision(b, r, fmt.Sprintf("%s %s the rule %s", what, verb, r))
		return askFor(mode, d), true
	}
	if r, ok := firstCommandRule(rules, raw); ok {
		return found(r, fmt.Sprintf("`%s`", shorten(raw)))
	}
	for _, p := range parts {
		if r, ok := firstCommandRule(rules, p.forms...); ok {
			return found(r, fmt.Sprintf("`%s`", shorten(p.full)))
		}
		if r, ok := firstBashRule(rules); ok && p.opaque != "" {
			return found(r, fmt.Sprintf("`%s` (%s, so it may be anything)", shorten(p.full), p.opaque))
		}
		for _, r := range rules {
			if couldMatch(r, p.cmd, p.lists) {
				return found(r, fmt.Sprintf("`%s` (a word that is not literal may make it match)", shorten(p.full)))
			}
		}
		for _, t := range append(append([]target{}, p.writes...), p.fileArgs...) {
			if r, ok := firstAny(rules, fileInput(in, "Edit", KindEdit, withResolved(t.paths, in))); ok {
				return found(r, fmt.Sprintf("writing %s", t.word))
			}
		}
		// Any literal path a command that is not read-only names may be written
		// (`sed -i F`, `tee F`, `dd of=F`): Edit rules see those too.
		for _, t := range p.mayWrite {
			if r, ok := firstAny(rules, fileInput(in, "Edit", KindEdit, withResolved(t.paths, in))); ok {
				return found(r, fmt.Sprintf("`%s` may write %s", shorten(p.full), t.word))
			}
		}
		for _, t := range p.readArgs {
			if r, ok := firstAny(rules, fileInput(in, "Read", KindRead, withResolved(t.paths, in))); ok {
				return found(r, fmt.Sprintf("reading %s", t.word))
			}
		}
	}
	return Decision{}, false
}

// fileInput is the call of a file tool on paths, for matching Edit and Read rules
// against what a command touches.
func fileInput(in Input, tool, kind string, paths []string) Input {
	return Input{Tool: tool, Kind: kind, Paths: paths, Workspace: in.Workspace, Cwd: in.Cwd, Home: in.Home}
}

// classify sets how each part and write target is allowed (partStatus).
func classify(mode Mode, allow []Rule, raw string, parts []bashPart, in Input, risky bool) {
	whole, wholeOK := exactRule(allow, raw)
	userAllow := withoutProject(allow)
	roots := in.roots()
	var resolvedRoots []string
	for i := range parts {
		p := &parts[i]
		r, ruled := firstCommandRule(allow, p.full)
		if ruled && r.Specifier != "" && !p.cmd.Literal {
			ruled = false // an allow rule matches only literal commands (issue 10, class 1)
		}
		partWhole := wholeOK
		// A read-only part not allowed by the person's own rule: does it read outside?
		if p.readOnly && (!wholeOK || whole.Project) && (!ruled || r.Project) {
			if resolvedRoots == nil {
				resolvedRoots = resolveAll(roots, in.resolvePath)
			}
			p.outside = !readsInside(p.readArgs, roots, resolvedRoots, in.Home, in.AddedDirs, in.resolvePath) &&
				!readsAllowed(userAllow, p.readArgs, in)
			if p.outside { // a project's rule stays inside the workspace (Rule.Project)
				partWhole, ruled = wholeOK && !whole.Project, ruled && !r.Project
			}
		}
		// A command a project's rule allows that is not read-only may read or follow
		// any path it names: each must lie inside (red team r18 F2).
		if !p.readOnly && ((wholeOK && whole.Project) || (ruled && r.Project)) {
			if resolvedRoots == nil {
				resolvedRoots = resolveAll(roots, in.resolvePath)
			}
			if carriesCode(p.cmd.Words) || !readsInside(p.reach, roots, resolvedRoots, in.Home, in.AddedDirs, in.resolvePath) && !readsAllowed(userAllow, p.reach, in) {
				p.outside = true
				partWhole, ruled = wholeOK && !whole.Project, ruled && !r.Project
			}
		}
		switch {
		case partWhole:
			p.status, p.rule = byAllowRule, whole
		case ruled:
			p.status, p.rule = byAllowRule, r
		case p.readOnly && !p.outside:
			p.status = byReadOnly
		case mode == ModeAcceptEdits && p.fileOp && targetsInside(p.fileArgs, in) && !risky:
			p.status = byModeOK
		}
		p.writeStatus = make([]partStatus, len(p.writes))
		p.writeRules = make([]Rule, len(p.writes))
		for j, t := range p.writes {
			r, ok := allowedAll(allow, fileInput(in, "Edit", KindEdit, t.paths))
			switch {
			case partWhole:
				p.writeStatus[j], p.writeRules[j] = byAllowRule, whole
			case len(t.paths) == 0:
			case ok:
				p.writeStatus[j], p.writeRules[j] = byAllowRule, r
			case mode == ModeAcceptEdits && targetsInside([]target{t}, in):
				p.writeStatus[j] = byModeOK
			}
		}
	}
}

// exactRule returns the first Bash allow rule without wildcards equal to the whole
// command line: a user who wrote `Bash(make && make test)` allowed exactly that.
func exactRule(allow []Rule, raw string) (Rule, bool) {
	for _, r := range allow {
		if r.Tool == "Bash" && r.Specifier != "" {
			if p := compileCommand(r.Specifier); !p.wildcard() && p.match(raw) {
				return r, true
			}
		}
	}
	return Rule{}, false
}

// targetsInside reports whether every target is known and inside the workspace,
// also with symlinks resolved (a link in the workspace that leads out is
// outside).
func targetsInside(ts []target, in Input) bool {
	roots := in.roots()
	resolved := resolveAll(roots, in.resolvePath)
	for _, t := range ts {
		if len(t.paths) == 0 {
			return false
		}
		for _, p := range t.paths {
			if !insideRoots(p, in.resolvePath(p), roots, resolved) {
				return false
			}
		}
	}
	return true
}

// combine decides after the rules: allowed when every part and write is, else
// the mode's default for what needs approval. In bypassPermissions, writes whose
// target cannot be resolved and forced deletes outside the workspace still ask.
func combine(mode Mode, parts []bashPart, risks []string, in Input) Decision {
	var need []string
	var rule *Rule
	viaMode, onlyReads := false, true
	note := func(s partStatus, r Rule, what string, read bool) {
		switch s {
		case pending:
			need = append(need, what)
			onlyReads = onlyReads && read
		case byAllowRule:
			if rule == nil {
				rule = &r
			}
		case byModeOK:
			viaMode = true
		}
	}
	if len(parts) == 0 && len(risks) > 0 {
		need = append(need, "the command")
		onlyReads = false
	}
	for _, p := range parts {
		what := fmt.Sprintf("`%s`", shorten(p.full))
		if p.outside && p.status == pending {
			what += " (it reads outside the workspace)"
		}
		note(p.status, p.rule, what, p.outside)
		for j, t := range p.writes {
			note(p.writeStatus[j], p.writeRules[j], "writing "+t.word, false)
		}
	}
	if len(need) == 0 {
		switch {
		case rule != nil:
			return ruleDecision(Allow, *rule, "the command is allowed by the rule "+rule.String())
		case viaMode:
			return Decision{Behavior: Allow, Reason: "acceptEdits allows file commands and writes inside the workspace", By: byMode(mode)}
		}
		return Decision{Behavior: Allow, Reason: "read-only commands need no approval", By: ByReadOnly}
	}
	if mode == ModeBypass {
		if why := bypassAsks(parts, in); why != "" {
			return Decision{Behavior: Ask, Reason: why + ", which asks even in bypassPermissions", By: "bypass-guard"}
		}
		return Decision{Behavior: Allow, Reason: "bypassPermissions allows every command not on the hard deny list", By: byMode(mode)}
	}
	reason := "the command needs approval for " + strings.Join(need, ", ")
	if len(risks) > 0 {
		reason += " (" + strings.Join(risks, "; ") + ")"
	}
	if mode == ModePlan {
		if onlyReads { // reading outside asks in plan mode, as Read does
			return Decision{Behavior: Ask, Reason: reason, By: byMode(mode)}
		}
		return Decision{Behavior: Deny, Reason: "plan mode is read-only: " + reason, By: byMode(mode)}
	}
	return askFor(mode, Decision{Behavior: Ask, Reason: reason, By: byMode(mode)})
}

// bypassAsks returns why a command bypassPermissions would allow still asks:
// a forced delete (rm -f, rm -rf) of anything outside the workspace or of a path
// that cannot be resolved (as Codex's dangerous-command check), or a write to a
// target that cannot be resolved (it might be a protected path); "" if none.
func bypassAsks(parts []bashPart, in Input) string {
	roots := in.roots()
	for _, p := range parts {
		if p.isForced {
			for _, t := range p.forced {
				if len(t.paths) == 0 {
					return fmt.Sprintf("`%s` force-deletes %s, which cannot be resolved", shorten(p.full), t.word)
				}
				if !allInside(t.paths, roots...) || !allInside(resolveAll(t.paths, in.resolvePath), resolveAll(roots, in.resolvePath)...) {
					return fmt.Sprintf("`%s` force-deletes %s, outside the workspace", shorten(p.full), t.paths[0])
				}
			}
			if len(p.forced) == 0 {
				return fmt.Sprintf("`%s` force-deletes files it does not name", shorten(p.full))
			}
		}
		if p.unknownWrite != "" {
			return p.unknownWrite + ": it cannot be checked against the protected paths"
		}
	}
	return ""
}

// readsInside reports whether every read target is known and inside the
// workspace (with symlinks resolved), and none holds credentials (secretPath).
func readsInside(ts []target, roots, resolvedRoots []string, home string, added []string, res func(string) string) bool {
	for _, t := range ts {
		if len(t.paths) == 0 {
			return false
		}
		for _, p := range t.paths {
			r := res(p)
			if !insideRoots(p, r, roots, resolvedRoots) || secretPathIn(p, home, added) || secretPathIn(r, home, added) {
				return false
			}
		}
	}
	return true
}

// readsAllowed reports whether Read allow rules allow every read target.
func readsAllowed(allow []Rule, ts []target, in Input) bool {
	if len(ts) == 0 {
		return false
	}
	for _, t := range ts {
		if len(t.paths) == 0 {
			return false
		}
		if _, ok := allowedAll(allow, fileInput(in, "Read", KindRead, t.paths)); !ok {
			return false
		}
	}
	return true
}

// protectedWrites asks (in every mode; dontAsk denies) when a part writes a
// protected path: a redirect target, a path argument of a command that is not
// read-only (the source of mv and cp included), or git's configuration through
// git itself.
func protectedWrites(mode Mode, parts []bashPart, in Input) (Decision, bool) {
	roots := in.roots()
	ask := func(what, verb, path, why string) (Decision, bool) {
		return askFor(mode, Decision{Behavior: Ask, Reason: fmt.Sprintf("%s %s %s, a protected path (%s); writes to it ask in every mode",
			what, verb, path, why), By: "protected"}), true
	}
	for _, p := range parts {
		what := fmt.Sprintf("`%s`", shorten(p.full))
		for _, t := range p.writes {
			if path, why, ok := protectedIn(t.paths, roots, in.Home, in.resolvePath); ok {
				return ask(what, "writes", path, why)
			}
			if path, ok := instructionIn(t.paths, in); ok {
				return ask(what, "writes", path, whyImported)
			}
			if path, why, ok := trustedCodeIn(t.paths, in); ok {
				return ask(what, "writes", path, why)
			}
		}
		for _, ts := range [][]target{p.fileArgs, p.mayWrite} {
			for _, t := range ts {
				if path, why, ok := protectedIn(t.paths, roots, in.Home, in.resolvePath); ok {
					return ask(what, "may write (it names it and is not read-only)", path, why)
				}
				if path, ok := instructionIn(t.paths, in); ok {
					return ask(what, "may write (it names it and is not read-only)", path, whyImported)
				}
				if path, why, ok := trustedCodeIn(t.paths, in); ok {
					return ask(what, "may write (it names it and is not read-only)", path, why)
				}
			}
		}
		if p.inline != "" {
			for _, w := range p.cmd.Words[1:] {
				if name, why, ok := namesProtected(w); ok {
					return askFor(mode, Decision{Behavior: Ask, Reason: fmt.Sprintf("%s: %s, and its code names %s, a protected path (%s); writes to it ask in every mode",
						what, p.inline, name, why), By: "protected"}), true
				}
			}
		}
		if p.gitConfig != "" {
			return askFor(mode, Decision{Behavior: Ask, Reason: fmt.Sprintf("%s: %s, %s; it asks in every mode", what, p.gitConfig, whyGit), By: "protected"}), true
		}
	}
	return Decision{}, false
}

// inlineAgainstDeny asks when Bash deny rules exist and a part runs code pincer
// cannot see (python3 -c, node -e, a heredoc fed to an interpreter): the code may
// do what a deny rule forbids. Plan mode denies such commands anyway.
func inlineAgainstDeny(mode Mode, deny []Rule, parts []bashPart) (Decision, bool) {
	if mode == ModePlan {
		return Decision{}, false
	}
	r, ok := firstBashRule(deny)
	if !ok {
		return Decision{}, false
	}
	for _, p := range parts {
		if p.inline != "" {
			d := ruleDecision(Ask, r, fmt.Sprintf("`%s` needs approval: %s, which may do what the deny rule %s forbids",
				shorten(p.full), p.inline, r))
			return askFor(mode, d), true
		}
	}
	return Decision{}, false
}

// firstBashRule returns the first Bash rule of rules.
func firstBashRule(rules []Rule) (Rule, bool) {
	for _, r := range rules {
		if r.Tool == "Bash" {
			return r, true
		}
	}
	return Rule{}, false
}

// alwaysOf returns the exact rules that would allow the pending parts: one
// `Bash(<exact command>)` per literal command, one `Edit(//path)` per write with
// one known path. Non-literal commands get none: approving `$CMD x` once must not
// approve whatever $CMD is next time. Parts an ask rule covers get none either:
// an ask rule beats every allow rule. When a part's meaning is not in its own
// words (exactOnlyReason: an interpreter fed a program, xargs, find -exec, a part
// after cd), the one rule is the exact whole line, and only when every part is
// literal; note says so.
func alwaysOf(raw string, a shell.Analysis, parts []bashPart, ask []Rule, in Input) ([]Rule, string) {
	if why := exactOnlyReason(parts); why != "" {
		for _, p := range parts {
			if _, asked := firstCommandRule(ask, p.forms...); asked || !p.cmd.Literal || len(a.Risks) > 0 {
				return nil, "\"always\" and \"session\" can save nothing here: " + why + ", and the command is not literal"
			}
		}
		return []Rule{{Tool: "Bash", Specifier: escapeCommand(raw)}},
			"\"always\" and \"session\" save only this exact command: " + why
	}
	var out []Rule
	add := func(r Rule) {
		for _, o := range out {
			if o == r {
				return
			}
		}
		out = append(out, r)
	}
	for _, p := range parts {
		if _, asked := firstCommandRule(ask, p.forms...); p.status == pending && p.cmd.Literal && !asked {
			add(Rule{Tool: "Bash", Specifier: escapeCommand(p.full)})
		}
		for j, t := range p.writes {
			if _, asked := firstAny(ask, fileInput(in, "Edit", KindEdit, t.paths)); p.writeStatus[j] == pending &&
				len(t.paths) == 1 && !asked {
				add(Rule{Tool: "Edit", Specifier: escapePath(t.paths[0])})
			}
		}
	}
	return out, ""
}

// shorten cuts a command for a reason line.
func shorten(s string) string {
	const max = 120
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}
