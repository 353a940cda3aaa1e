package subagent

import (
	"fmt"

	"pincer/core/permission"
)

// strictness orders the modes by what runs without a person's answer, the
// strictest first: plan (reads and read-only commands; edits and other
// commands denied even when a rule allows them) lets run a subset of what
// dontAsk does (what a rule allows too; anything that would ask denied),
// which lets run what default does and asks for nothing; acceptEdits adds
// workspace edits; auto (default plus the classifier's allows) is not
// comparable with acceptEdits, so it ranks above it and neither may be
// reached from the other; bypassPermissions everything but the always-asks.
var strictness = map[permission.Mode]int{
	permission.ModePlan:        0,
	permission.ModeDontAsk:     1,
	permission.ModeDefault:     2,
	permission.ModeAcceptEdits: 3,
	permission.ModeAuto:        4,
	permission.ModeBypass:      5,
}

// EffectiveMode is the permission mode a subagent runs in: the parent's mode
// in force, unless the definition asks for a stricter one (a definition may
// only tighten). A looser or unknown mode is ignored and said in warning
// ("" when none). Claude Code's subagents likewise cannot leave a parent's
// bypassPermissions or plan by their own permissionMode in the direction of
// fewer prompts; pincer holds every mode to the one order above.
func EffectiveMode(parent, want permission.Mode) (mode permission.Mode, warning string) {
	if want == "" || want == parent {
		return parent, ""
	}
	w, okW := strictness[want]
	p, okP := strictness[parent]
	if !okP {
		return parent, fmt.Sprintf("permissionMode %s: the parent's mode %q is unknown, kept", want, parent)
	}
	if !okW {
		return parent, fmt.Sprintf("permissionMode %q is unknown: the parent's %s applies", want, parent)
	}
	if w > p || (parent == permission.ModeAuto && want == permission.ModeAcceptEdits) {
		return parent, fmt.Sprintf("permissionMode %s is looser than the parent's %s: ignored (a definition may only tighten)", want, parent)
	}
	return want, ""
}
