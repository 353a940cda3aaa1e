// Package permission decides whether a tool call may run. Decisions are pure
// functions of the mode and the request, table-tested.
//
// This is the minimal policy of the agent-core issue: modes only, no rules. The full
// engine (Claude Code's rule syntax, shell analysis, audit trail) plugs in behind the
// same Decide signature later. Approval is not the last line: the workspace path guard
// in sandbox/ holds whatever is decided here.
package permission

import (
	"fmt"
	"strings"
)

// Mode is a permission mode, with Claude Code's names.
type Mode string

// The permission modes.
const (
	// ModeDefault: reads are free; edits and commands ask.
	ModeDefault Mode = "default"
	// ModeAcceptEdits: reads and edits inside the workspace are free; commands ask.
	ModeAcceptEdits Mode = "acceptEdits"
	// ModePlan: read-only; edits and commands are denied.
	ModePlan Mode = "plan"
	// ModeBypass: everything is allowed (the sandbox's hard limits still apply).
	ModeBypass Mode = "bypassPermissions"
	// ModeDontAsk: anything that would ask is denied instead (for headless runs).
	ModeDontAsk Mode = "dontAsk"
)

// Modes lists every mode, for help texts and validation.
var Modes = []Mode{ModeDefault, ModeAcceptEdits, ModePlan, ModeBypass, ModeDontAsk}

// ParseMode validates s; the empty string is ModeDefault.
func ParseMode(s string) (Mode, error) {
	if s == "" {
		return ModeDefault, nil
	}
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	names := make([]string, len(Modes))
	for i, m := range Modes {
		names[i] = string(m)
	}
	return "", fmt.Errorf("unknown permission mode %q (want one of %s)", s, strings.Join(names, ", "))
}

// Behavior is the outcome of a decision.
type Behavior string

// Decision outcomes.
const (
	Allow Behavior = "allow"
	Deny  Behavior = "deny"
	Ask   Behavior = "ask"
)

// Request describes a tool call to decide on. Kind is the tool's kind ("read",
// "edit", "execute"); Paths are the absolute paths it would touch; Workspace is the
// workspace root.
type Request struct {
	Tool      string
	Kind      string
	Summary   string
	Paths     []string
	Workspace string
}

// Decision is what Decide returned and why. By names the deciding authority
// ("mode:acceptEdits"); Reason is a sentence for the model and the user.
type Decision struct {
	Behavior Behavior
	Reason   string
	By       string
}

// Decide applies mode to req. Unknown kinds are treated as "execute".
func Decide(mode Mode, req Request) Decision {
	by := "mode:" + string(mode)
	inside := allInside(req.Paths, req.Workspace)
	switch mode {
	case ModeBypass:
		return Decision{Allow, "bypassPermissions allows every tool call", by}
	case ModePlan:
		if req.Kind == "read" {
			return Decision{Allow, "reads are allowed in plan mode", by}
		}
		return Decision{Deny, fmt.Sprintf("%s is not allowed in plan mode (read-only)", req.Tool), by}
	case ModeAcceptEdits:
		if req.Kind == "read" || (req.Kind == "edit" && inside) {
			return Decision{Allow, "acceptEdits allows reads and workspace edits", by}
		}
		return Decision{Ask, fmt.Sprintf("%s needs approval in acceptEdits mode", req.Tool), by}
	case ModeDontAsk:
		if req.Kind == "read" {
			return Decision{Allow, "reads are allowed", by}
		}
		return Decision{Deny, fmt.Sprintf("%s is denied: dontAsk mode denies what no rule allows", req.Tool), by}
	default:
		if req.Kind == "read" {
			return Decision{Allow, "reads are allowed", by}
		}
		return Decision{Ask, fmt.Sprintf("%s needs approval", req.Tool), by}
	}
}

// HeadlessDenial turns an Ask into the Deny a run without a person gets, with a
// reason naming the flag that would allow the call.
func HeadlessDenial(mode Mode, req Request) Decision {
	flag := "--permission-mode bypassPermissions"
	if req.Kind == "edit" && mode != ModeAcceptEdits {
		flag = "--permission-mode acceptEdits (or bypassPermissions)"
	}
	return Decision{
		Behavior: Deny,
		Reason: fmt.Sprintf("%s was denied: it needs approval and this run has no one to ask; rerun with %s to allow it",
			req.Tool, flag),
		By: "headless",
	}
}

// allInside reports whether every path is the workspace or below it. No paths counts
// as inside (the tool touches no file).
func allInside(paths []string, root string) bool {
	for _, p := range paths {
		if root == "" || (p != root && !strings.HasPrefix(p, strings.TrimSuffix(root, "/")+"/")) {
			return false
		}
	}
	return true
}
