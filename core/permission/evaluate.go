package permission

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Evaluate decides in under mode and rules. Bash commands go through the shell
// analysis (evaluate_bash.go): hard deny first, then rules per simple command,
// then the read-only set and the mode. Every other call: deny rules, plan mode's
// read-only promise, ask rules, allow rules, then the mode's default (modeDefault).
//
// Deviations from Claude Code, on purpose: in plan mode an allow rule does not
// let an edit or a non-read-only command through (plan is a read-only promise);
// ask rules still ask in bypassPermissions, as in Claude Code, so a headless
// bypass run denies them.
func Evaluate(mode Mode, rules RuleSet, in Input) Decision {
	if mode == ModeAuto {
		d := Evaluate(ModeDefault, rules, in)
		if d.By == byMode(ModeDefault) {
			d.By = byMode(ModeAuto) // the mode in force, in the audit trail
		}
		return d
	}
	in = normalize(in)
	if in.Tool == "Bash" && strings.TrimSpace(in.Command) != "" {
		return projectOnly(mode, rules, in, evalBash(mode, rules, in).decision)
	}
	return evalCall(mode, rules, in)
}

// decidingMode is the mode the rules are applied in: auto decides as default
// (the classifier may then allow what the mode asks: WithVerdict).
func decidingMode(m Mode) Mode {
	if m == ModeAuto {
		return ModeDefault
	}
	return m
}

// normalize fills Input's defaults: Cwd is the workspace; no kind is execute;
// a fresh symlink memo for this evaluation.
func normalize(in Input) Input {
	in.resolve = pathMemo{}.resolver()
	if in.Cwd == "" {
		in.Cwd = in.Workspace
	}
	if in.Kind == "" {
		in.Kind = KindExecute
	}
	return in
}

// writes reports whether a tool of kind may change something (plan denies it).
func writes(kind string) bool { return kind != KindRead && kind != KindFetch }

// evalCall decides a call that is not a Bash command.
func evalCall(mode Mode, rules RuleSet, in Input) Decision {
	if r, ok := firstAny(rules.Deny, in); ok {
		return ruleDecision(Deny, r, fmt.Sprintf("%s is denied by the rule %s", in.Tool, r))
	}
	if d, ok := hiddenRead(in); ok {
		return d
	}
	if d, ok := hiddenLink(mode, in); ok {
		return d
	}
	if mode == ModePlan && writes(in.Kind) {
		return Decision{Behavior: Deny, Reason: fmt.Sprintf("%s is not allowed in plan mode (read-only): present the plan instead of changing anything", in.Tool), By: byMode(mode)}
	}
	if d, ok := protectedEdit(mode, in); ok {
		return d
	}
	if r, ok := firstAny(rules.Ask, in); ok {
		return askFor(mode, ruleDecision(Ask, r, fmt.Sprintf("%s needs approval: the rule %s asks for it", in.Tool, r)))
	}
	allow := rules.Allow
	if reachesOut(in) || in.Kind == KindFetch {
		allow = withoutProject(allow) // a project's rule stays inside the workspace, off the network
	}
	if r, ok := allowedAll(allow, in); ok {
		return ruleDecision(Allow, r, fmt.Sprintf("%s is allowed by the rule %s", in.Tool, r))
	}
	return modeDefault(mode, in)
}

// modeDefault is the decision of the mode for a call no rule matched.
func modeDefault(mode Mode, in Input) Decision {
	by := byMode(mode)
	if mode == ModeBypass {
		return Decision{Behavior: Allow, Reason: "bypassPermissions allows every tool call", By: by}
	}
	switch in.Kind {
	case KindRead:
		if allInside(in.Paths, in.roots()...) && !readsSecret(in) {
			return Decision{Behavior: Allow, Reason: "reads inside the workspace are allowed", By: by}
		}
		return askFor(mode, Decision{Behavior: Ask, Reason: fmt.Sprintf("%s outside the workspace needs approval", in.Tool), By: by})
	case KindEdit:
		if mode == ModeAcceptEdits && allInside(in.Paths, in.roots()...) { // no paths: touches no file
			return Decision{Behavior: Allow, Reason: "acceptEdits allows edits inside the workspace", By: by}
		}
		if mode == ModeAcceptEdits {
			return askFor(mode, Decision{Behavior: Ask, Reason: fmt.Sprintf("%s outside the workspace needs approval in acceptEdits mode", in.Tool), By: by})
		}
	case KindFetch:
		if mode == ModePlan {
			return Decision{Behavior: Ask, Reason: fmt.Sprintf("%s needs approval", in.Tool), By: by}
		}
	}
	if mode == ModePlan { // writes are denied earlier; here for callers of modeDefault alone
		return Decision{Behavior: Deny, Reason: fmt.Sprintf("%s is not allowed in plan mode (read-only)", in.Tool), By: by}
	}
	return askFor(mode, Decision{Behavior: Ask, Reason: fmt.Sprintf("%s needs approval", in.Tool), By: by})
}

// protectedEdit asks, in every mode (dontAsk denies), for an edit of a
// protected path (Protected, with symlinks resolved) or of a file with more than
// one hard link (Input.Linked: the other names may be anywhere).
func protectedEdit(mode Mode, in Input) (Decision, bool) {
	if in.Kind != KindEdit {
		return Decision{}, false
	}
	if path, why, ok := protectedIn(in.Paths, in.roots(), in.Home, in.resolvePath); ok {
		return askFor(mode, Decision{Behavior: Ask, Reason: fmt.Sprintf("%s writes %s, a protected path (%s); writes to it ask in every mode",
			in.Tool, path, why), By: "protected"}), true
	}
	if path, ok := instructionIn(in.Paths, in); ok {
		return askFor(mode, Decision{Behavior: Ask, Reason: fmt.Sprintf("%s writes %s, a protected path (%s); writes to it ask in every mode",
			in.Tool, path, whyImported), By: "protected"}), true
	}
	if path, why, ok := trustedCodeIn(in.Paths, in); ok {
		return askFor(mode, Decision{Behavior: Ask, Reason: fmt.Sprintf("%s writes %s, a protected path (%s); writes to it ask in every mode",
			in.Tool, path, why), By: "protected"}), true
	}
	if len(in.Linked) > 0 {
		return askFor(mode, Decision{Behavior: Ask, Reason: fmt.Sprintf("%s writes %s, a file with more than one hard link (its other names may be outside the workspace); it asks in every mode",
			in.Tool, in.Linked[0]), By: "protected"}), true
	}
	return Decision{}, false
}

// readsSecret reports whether a read reaches credentials (secretPath), which
// asks even inside the workspace.
func readsSecret(in Input) bool {
	for _, p := range in.Paths {
		if secretPathIn(p, in.Home, in.AddedDirs) || secretPathIn(in.resolvePath(p), in.Home, in.AddedDirs) {
			return true
		}
	}
	return false
}

// askFor returns d, an Ask, as mode has it: dontAsk denies what would ask.
func askFor(mode Mode, d Decision) Decision {
	if d.Behavior == Ask && mode == ModeDontAsk {
		d.Behavior = Deny
		d.Reason = strings.TrimSuffix(d.Reason, ".") + "; dontAsk mode denies what no rule allows"
		if d.Rule == "" {
			d.By = byMode(mode)
		}
	}
	return d
}

// resolvePath is resolveExisting, through the evaluation's memo when there is one.
func (in Input) resolvePath(p string) string {
	if in.resolve == nil {
		return resolveExisting(p)
	}
	return in.resolve(p)
}

// whyImported is the reason a file of Input.Instructions is protected.
const whyImported = whyInstructions + ": the project's instructions import it"

// instructionIn returns the first of paths that is one of in.Instructions, the
// files the project's instructions import, compared cleaned and with symlinks
// resolved on both sides.
func instructionIn(paths []string, in Input) (string, bool) {
	if len(in.Instructions) == 0 {
		return "", false
	}
	for _, p := range paths {
		cp, rp := filepath.Clean(p), in.resolvePath(p)
		for _, f := range in.Instructions {
			if cf := filepath.Clean(f); cf == cp || cf == rp || in.resolvePath(f) == rp {
				return p, true
			}
		}
	}
	return "", false
}
