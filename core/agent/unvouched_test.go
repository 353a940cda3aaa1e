package agent

import (
	"context"
	"testing"

	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/sandbox"
)

// TestUnvouchedCalls: a Bash call reaches the tool with Unvouched exactly
// when the person did not allow it themselves and no repository's rule
// allowed it: the read-only set's and acceptEdits' allows are unvouched, and
// confined for their own decision (permission.Decision.ByPaths); the
// person's rule, their approval and bypassPermissions are neither; a
// repository's rule is confined by itself.
func TestUnvouchedCalls(t *testing.T) {
	rule := func(s string, project bool) permission.RuleSet { return allowRule(t, permission.RuleSet{}, s, project) }
	on := sandbox.DefaultPolicy()
	cases := []struct {
		name     string
		command  string
		mode     permission.Mode
		rules    permission.RuleSet
		approver Approver
		want     bool
		confined bool // ConfineReads: for its own decision (ByPaths) or a repository's rule
	}{
		{"read-only set", "cat t.txt", permission.ModeDefault, permission.RuleSet{}, nil, true, true},
		{"read-only set, plan", "cat t.txt", permission.ModePlan, permission.RuleSet{}, nil, true, true},
		{"acceptEdits", "touch t.txt", permission.ModeAcceptEdits, permission.RuleSet{}, nil, true, true},
		{"acceptEdits, a move then a read", "mv a b && cat b/m.txt", permission.ModeAcceptEdits, permission.RuleSet{}, nil, true, true},
		{"person's rule", "cat t.txt", permission.ModeDefault, rule("Bash(cat:*)", false), nil, false, false},
		{"person's approval", "npm test", permission.ModeDefault, permission.RuleSet{}, allowAll{}, false, false},
		{"bypassPermissions", "cat t.txt", permission.ModeBypass, permission.RuleSet{}, nil, false, false},
		{"repository's rule", "npm test", permission.ModeDefault, rule("Bash(npm test:*)", true), nil, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if sandbox.Probe().LandlockABI == 0 {
				t.Skip("Landlock unavailable")
			}
			probe := &confineProbe{}
			prov := &providertest.Scripted{Steps: []providertest.Step{
				providertest.ToolCalls(providertest.ToolCall("c1", "Bash", `{"command":"`+c.command+`"}`)),
				{Events: providertest.TextEvents("ok")},
			}}
			cfg := Config{Rules: c.rules, Sandbox: &on, Approver: c.approver, PermissionMode: c.mode}
			h := newHarnessWith(t, prov, memory.New(), cfg, probe)
			h.submit(context.Background(), "go")
			if len(probe.unvouched) != 1 || probe.unvouched[0] != c.want {
				t.Fatalf("Unvouched of the run: %v, want [%v]", probe.unvouched, c.want)
			}
			if probe.confined[0] != c.confined {
				t.Errorf("ConfineReads of the run: %v, want %v", probe.confined[0], c.confined)
			}
		})
	}
}

// TestTaints: which allowed calls taint their workspace — a project-only
// command always; an unvouched background shell unless the read-only set
// allowed it; never a foreground unvouched command, a person's call or a
// call that was not allowed.
func TestTaints(t *testing.T) {
	bash := &confineProbe{}
	allow := func(by string) permission.Decision { return permission.Decision{Behavior: permission.Allow, By: by} }
	cases := []struct {
		name     string
		input    string
		d        permission.Decision
		personal bool
		want     bool
	}{
		{"project-only", `{"command":"make"}`, permission.Decision{Behavior: permission.Allow, ProjectOnly: true}, false, true},
		{"acceptEdits, background", `{"command":"mv a b","run_in_background":true}`, allow("mode:acceptEdits"), false, true},
		{"hook, background", `{"command":"x","run_in_background":true}`, allow("hook"), false, true},
		{"read-only set, background", `{"command":"tail -F x","run_in_background":true}`, allow(permission.ByReadOnly), false, false},
		{"acceptEdits, foreground", `{"command":"mv a b"}`, allow("mode:acceptEdits"), false, false},
		{"person's, background", `{"command":"mv a b","run_in_background":true}`, allow("user"), true, false},
		{"asked and denied, background", `{"command":"mv a b","run_in_background":true}`, permission.Decision{Behavior: permission.Deny}, false, false},
		{"malformed input", `{"command":`, allow("mode:acceptEdits"), false, false},
	}
	for _, c := range cases {
		p := &prepared{tool: bash, input: []byte(c.input), personal: c.personal}
		if got := taints(p, c.d); got != c.want {
			t.Errorf("%s: taints = %v, want %v", c.name, got, c.want)
		}
	}
}
