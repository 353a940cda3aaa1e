package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/tools"
)

// TestSessionRuleEdits: AddSessionRule stores a parsed rule once (Source
// "session"), Rules lists it after the configuration's, RemoveSessionRule
// takes it out, and bad input stores nothing.
func TestSessionRuleEdits(t *testing.T) {
	ctx := context.Background()
	h := newHarnessWith(t, nil, memory.New(), Config{Rules: permission.RuleSet{Allow: []permission.Rule{{Tool: "Read", Source: "user config"}}}})
	id := h.sess.ID
	for i := 0; i < 2; i++ {
		if _, err := h.ag.AddSessionRule(ctx, id, permission.Allow, "Bash(go test:*)"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := h.ag.AddSessionRule(ctx, id, permission.Deny, " WebFetch "); err != nil {
		t.Fatal(err)
	}
	rs, errs := h.ag.Rules(ctx, id)
	if len(errs) != 0 || len(rs.Allow) != 2 || rs.Allow[0].Source != "user config" || rs.Allow[1].String() != "Bash(go test:*)" ||
		rs.Allow[1].Source != permission.SessionSource || len(rs.Deny) != 1 || rs.Deny[0].String() != "WebFetch" {
		t.Fatalf("rules %+v, %v", rs, errs)
	}
	for _, c := range []struct {
		b    permission.Behavior
		rule string
	}{{"allow", "Bash("}, {"allow", ""}, {"always", "Read"}, {"allow", "no tool(x)"}} {
		if _, err := h.ag.AddSessionRule(ctx, id, c.b, c.rule); err == nil {
			t.Errorf("%s %q: no error", c.b, c.rule)
		}
	}
	if _, err := h.ag.RemoveSessionRule(ctx, id, permission.Allow, "Read"); !errors.Is(err, ErrNoSuchSessionRule) {
		t.Errorf("removing a config file's rule: %v", err)
	}
	if _, err := h.ag.RemoveSessionRule(ctx, id, permission.Allow, "Bash(go test:*)"); err != nil {
		t.Fatal(err)
	}
	if rs, _ = h.ag.Rules(ctx, id); len(rs.Allow) != 1 || len(rs.Deny) != 1 {
		t.Fatalf("after remove: %+v", rs)
	}
}

// TestSessionRuleDecidesNextTurn: a deny rule /permissions adds for the
// session refuses the next turn's Read, which the default mode allows
// without it.
func TestSessionRuleDecidesNextTurn(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Read", `{"file_path":"f.txt"}`)),
		{Events: providertest.TextEvents("one")},
		providertest.ToolCalls(providertest.ToolCall("c2", "Read", `{"file_path":"f.txt"}`)),
		{Events: providertest.TextEvents("two")},
	}}
	h := newHarnessWith(t, prov, memory.New(), Config{}, tools.Default().All()...)
	if err := os.WriteFile(filepath.Join(h.ag.cfg.Workspace.Root(), "f.txt"), []byte("marker\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	h.submit(ctx, "read it")
	if _, err := h.ag.AddSessionRule(ctx, h.sess.ID, permission.Deny, "Read(f.txt)"); err != nil {
		t.Fatal(err)
	}
	h.submit(ctx, "read it again")
	results := map[string]event.ToolCompletedData{}
	for _, ev := range eventsOf(h.events(), event.ToolCompleted) {
		if p, err := ev.Payload(); err == nil {
			results[p.(event.ToolCompletedData).ToolCallID] = p.(event.ToolCompletedData)
		}
	}
	if r := results["c1"]; r.IsError || !strings.Contains(r.Output, "marker") {
		t.Fatalf("the first Read: %+v", r)
	}
	if r := results["c2"]; !r.IsError || strings.Contains(r.Output, "marker") {
		t.Fatalf("the Read after the session's deny rule: %+v", r)
	}
}
