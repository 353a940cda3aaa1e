package agent

import (
	"context"
	"strings"
	"testing"

	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/sandbox"
)

// TestTaintConfinesLaterCalls: once a command only a repository's rule
// allows has been allowed in the workspace, a later auto-allowed read-only
// command reaches Bash with ConfineReads (and ConfineTainted); the person's
// own rule or approval does not confine it; without a sandbox to confine it
// the call asks (denied with no one to ask); with no such command nothing
// changes.
func TestTaintConfinesLaterCalls(t *testing.T) {
	rules := func(person string) permission.RuleSet {
		rs := allowRule(t, permission.RuleSet{}, "Bash(npm test:*)", true)
		if person != "" {
			rs = allowRule(t, rs, person, false)
		}
		return rs
	}
	on := sandbox.DefaultPolicy()
	cases := []struct {
		name     string
		taintNow bool   // taint the workspace before the turn
		first    string // a command run before cat t.txt ("": none)
		person   string // the person's own allow rule
		sandbox  *sandbox.Policy
		approver Approver
		ran      []bool // ConfineReads of each run
		reason   string // in cat's result, when it did not run
	}{
		{"no taint: confined by its own decision (the read-only set)", false, "", "", &on, nil, []bool{true}, ""},
		{"project-only command first", false, "npm test", "", &on, nil, []bool{true, true}, ""},
		{"tainted", true, "", "", &on, nil, []bool{true}, ""},
		{"tainted, person's rule", true, "", "Bash(cat:*)", &on, nil, []bool{false}, ""},
		{"tainted, sandbox off, no one to ask", true, "", "", nil, nil, nil, "ran earlier in this workspace"},
		{"tainted, sandbox off, approved", true, "", "", nil, allowAll{}, []bool{false}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.sandbox != nil && sandbox.Probe().LandlockABI == 0 {
				t.Skip("Landlock unavailable")
			}
			probe := &confineProbe{}
			var calls []providertest.Step
			if c.first != "" {
				calls = append(calls, providertest.ToolCalls(providertest.ToolCall("c0", "Bash", `{"command":"`+c.first+`"}`)))
			}
			calls = append(calls, providertest.ToolCalls(providertest.ToolCall("c1", "Bash", `{"command":"cat t.txt"}`)),
				providertest.Step{Events: providertest.TextEvents("ok")})
			prov := &providertest.Scripted{Steps: calls}
			cfg := Config{Rules: rules(c.person), Sandbox: c.sandbox, Approver: c.approver}
			h := newHarnessWith(t, prov, memory.New(), cfg, probe)
			if c.taintNow {
				h.ag.cfg.Workspace.TaintReads()
			}
			h.submit(context.Background(), "test it")
			if len(probe.confined) != len(c.ran) {
				t.Fatalf("runs (ConfineReads each): %v, want %v", probe.confined, c.ran)
			}
			for i := range c.ran {
				if probe.confined[i] != c.ran[i] {
					t.Errorf("runs (ConfineReads each): %v, want %v", probe.confined, c.ran)
				}
			}
			if c.reason != "" {
				if out := h.toolResults()["c1"]; !strings.Contains(out.Text, c.reason) {
					t.Errorf("the result %q does not say %q", out.Text, c.reason)
				}
			}
		})
	}
}
