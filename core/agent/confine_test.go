package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/sandbox"
	"pincer/tools"
)

// confineProbe is a Bash stand-in that records whether its call was told to
// confine its reads (tools.Env.ConfineReads).
type confineProbe struct{ confined, unvouched []bool }

func (c *confineProbe) Spec() tools.Spec {
	return tools.Spec{Name: "Bash", Description: "records", Kind: tools.KindExecute,
		Schema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)}
}
func (c *confineProbe) Summary(in json.RawMessage) string          { return "Bash " + string(in) }
func (c *confineProbe) Paths(*tools.Env, json.RawMessage) []string { return nil }
func (c *confineProbe) Run(_ context.Context, env *tools.Env, _ json.RawMessage) (tools.Result, error) {
	c.confined = append(c.confined, env.ConfineReads)
	c.unvouched = append(c.unvouched, env.Unvouched)
	return tools.Result{Output: "ran"}, nil
}

// allowAll approves every ask, once.
type allowAll struct{}

func (allowAll) Approve(context.Context, string, string, permission.Input, permission.Decision) Approval {
	return Approval{Decision: permission.Decision{Behavior: permission.Allow, By: "user"}, Scope: permission.ScopeOnce}
}

// TestProjectOnlyConfinesReads: a command only a repository's rule allows
// reaches Bash with ConfineReads; the person's own rule for it does not
// confine it; without a sandbox to confine it the call asks — denied with no
// one to ask, run unconfined once the person approves it.
func TestProjectOnlyConfinesReads(t *testing.T) {
	rule := func(project bool) permission.RuleSet {
		return allowRule(t, permission.RuleSet{}, "Bash(npm test:*)", project)
	}
	on := sandbox.DefaultPolicy()
	cases := []struct {
		name     string
		rules    permission.RuleSet
		sandbox  *sandbox.Policy
		approver Approver
		ran      []bool // ConfineReads of each run; nil: it did not run
		reason   string // in the result, when it did not run
	}{
		{"project rule", rule(true), &on, nil, []bool{true}, ""},
		{"person's rule", rule(false), &on, nil, []bool{false}, ""},
		{"project rule, sandbox off, no one to ask", rule(true), nil, nil, nil, "cannot be here (the sandbox is off)"},
		{"project rule, sandbox off, approved", rule(true), nil, allowAll{}, []bool{false}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.sandbox != nil && sandbox.Probe().LandlockABI == 0 {
				t.Skip("Landlock unavailable")
			}
			probe := &confineProbe{}
			prov := &providertest.Scripted{Steps: []providertest.Step{
				providertest.ToolCalls(providertest.ToolCall("c1", "Bash", `{"command":"npm test"}`)),
				{Events: providertest.TextEvents("ok")},
			}}
			cfg := Config{Rules: c.rules, Sandbox: c.sandbox, Approver: c.approver}
			h := newHarnessWith(t, prov, memory.New(), cfg, probe)
			h.submit(context.Background(), "test it")
			if len(probe.confined) != len(c.ran) || (len(c.ran) > 0 && probe.confined[0] != c.ran[0]) {
				t.Errorf("runs (ConfineReads each): %v, want %v", probe.confined, c.ran)
			}
			if c.reason != "" {
				if out := h.toolResults()["c1"]; !strings.Contains(out.Text, c.reason) {
					t.Errorf("the result %q does not say %q", out.Text, c.reason)
				}
			}
		})
	}
}

// allowRule returns rs with the allow rule s added, read from a workspace
// file when project (permission.Rule.Project), the person's own otherwise.
func allowRule(t *testing.T, rs permission.RuleSet, s string, project bool) permission.RuleSet {
	t.Helper()
	r, err := permission.ParseRule(s)
	if err != nil {
		t.Fatal(err)
	}
	r.Project, r.Source = project, "test"
	return rs.Add(permission.Allow, r)
}
