package agent

import (
	"encoding/json"
	"slices"

	"pincer/core/permission"
	"pincer/sandbox"
	"pincer/tools"
)

// A command only a repository's rule allows runs with its reads confined
// (confinable), but it can leave behind — or, in the background, keep making
// — a symlink or a gitfile (`sub/.git`: `gitdir: /outside/repo/.git`) that a
// later read-only command, decided on the paths it saw, follows outside (red
// team r19 H1, H2). So once such a command has been allowed in a workspace,
// the workspace is tainted for the rest of the process
// (sandbox.Workspace.TaintReads, shared by every session and subagent on it),
// and every later Bash call there that the person did not allow themselves
// runs with its reads confined as well (tools.Env.ConfineTainted).

// taintConfines reports whether a call of tool, allowed by d, must run with
// its reads confined because ws is tainted: a Bash command allowed by
// anything but the person's own say (personal: their approval or their own
// rule) — the read-only set, a mode's default, a hook, the classifier. A
// ProjectOnly decision confines the call by itself (confinable). Such a call
// reads only inside the workspace by its decision, so confining it never
// contradicts the decision.
func taintConfines(ws *sandbox.Workspace, tool string, d permission.Decision, personal bool) bool {
	return ws != nil && ws.ReadsTainted() && unvouched(tool, d, personal)
}

// unvouched reports whether a call of tool, allowed by d, is a Bash command
// allowed by anything but the person's own say and not confined by its own
// decision (ProjectOnly): what a taint confines, and what tools.Env.Unvouched
// guards while it runs (a background shell confined, an unconfined command
// ended by a later taint: red team r20 F1, F2).
func unvouched(tool string, d permission.Decision, personal bool) bool {
	return tool == "Bash" && d.Behavior == permission.Allow && !d.ProjectOnly && !personal
}

// confinesByPaths reports whether the reads of a call env runs must be
// confined for its own decision d: an unvouched Bash call whose allow rests
// on the paths it named (permission.Decision.ByPaths: the read-only set,
// acceptEdits' file commands) runs, wherever Landlock can confine it, held
// by the kernel to what the decision promised — reads inside the workspace
// (and the system's and toolchains' trees) — whatever the words did not show:
// links met below a named directory (diff -r), a link moved by an earlier
// part of the same command line (`mv a/b/x y && cat y/m.txt`), a git dir's
// state file re-aimed, a read racing another session's or subagent's move
// (red team r21 F1-F4). Without Landlock nothing changes (the taint and
// tools' holds still apply). The call's result says so only when something
// was refused (tools.Env.ConfineQuiet).
func confinesByPaths(env *tools.Env, d permission.Decision) bool {
	return env.Unvouched && !env.ConfineReads && d.ByPaths() && unconfinable(env) == ""
}

// taints reports whether allowing the prepared call p by d taints its
// workspace: a command only a repository's rule allows (d.ProjectOnly), or
// an unvouched background shell that is not read-only (anything but the
// read-only set allowed it: acceptEdits' mv, a hook) — it can re-aim a path
// (a link moved or swapped) while a later call runs on the paths its
// decision saw: acceptEdits' `{ echo go; mv a/b/x y; } > ff` in the
// background, then a read-only `cat ff y/m.txt` (TestAttackUnvouchedBackgroundWriter).
// A foreground command ends before the next call's decision, which sees
// what it left.
func taints(p *prepared, d permission.Decision) bool {
	if d.Behavior != permission.Allow {
		return false
	}
	if d.ProjectOnly {
		return true
	}
	return unvouched(p.tool.Spec().Name, d, p.personal) && d.By != permission.ByReadOnly && inBackground(p.input)
}

// inBackground reports whether a Bash call's input asks for a background
// shell (run_in_background, tools.BashInput).
func inBackground(input json.RawMessage) bool {
	var in struct {
		RunInBackground bool `json:"run_in_background"`
	}
	return json.Unmarshal(input, &in) == nil && in.RunInBackground
}

// personsRule reports whether d allows by one of the person's own allow
// rules in rules (not a rule read from a workspace file: Rule.Project).
func personsRule(rules permission.RuleSet, d permission.Decision) bool {
	return d.Behavior == permission.Allow && d.Rule != "" && slices.ContainsFunc(rules.Allow, func(r permission.Rule) bool {
		return !r.Project && r.String() == d.Rule
	})
}

// confinableTainted returns d, or an ask in its place when the reads of the
// call d allows must be confined because its workspace is tainted
// (taintConfines) and cannot be confined here: fail closed, as confinable.
func confinableTainted(env *tools.Env, d permission.Decision) permission.Decision {
	why := unconfinable(env)
	if why == "" {
		return d
	}
	return permission.Decision{Behavior: permission.Ask, By: confineBy,
		Reason: "a command only a repository's rule allowed ran earlier in this workspace, so this command's reads must be confined to the workspace, and they cannot be here (" + why + "): it needs approval"}
}
