package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/tools"
)

// countingApprover answers every ask with allow and counts the asks.
type countingApprover struct {
	mu   sync.Mutex
	asks []string
}

func (a *countingApprover) Approve(_ context.Context, _, _ string, in permission.Input, _ permission.Decision) Approval {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asks = append(a.asks, in.Tool)
	return Approval{Decision: permission.Decision{Behavior: permission.Allow, By: "user"}, Scope: permission.ScopeOnce}
}

// TestConfigEditAlwaysAsks: the /update-config turn's ConfigEdit waits for a
// person in every mode — bypassPermissions and acceptEdits included, with an
// allow rule naming it — for a file outside every protected path too
// (Spec.AskAlways), and without an approver (headless) or in dontAsk it is
// denied, writing nothing.
func TestConfigEditAlwaysAsks(t *testing.T) {
	allowAll := permission.RuleSet{}.Add(permission.Allow, mustRule(t, "ConfigEdit"))
	for _, tc := range []struct {
		name     string
		mode     permission.Mode
		rules    permission.RuleSet
		approver bool
		written  bool
	}{
		{"default", permission.ModeDefault, permission.RuleSet{}, true, true},
		{"acceptEdits", permission.ModeAcceptEdits, permission.RuleSet{}, true, true},
		{"bypass", permission.ModeBypass, permission.RuleSet{}, true, true},
		{"bypass with an allow rule", permission.ModeBypass, allowAll, true, true},
		{"headless bypass", permission.ModeBypass, allowAll, false, false},
		{"dontAsk", permission.ModeDontAsk, allowAll, true, false},
		{"plan", permission.ModePlan, permission.RuleSet{}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "config.toml")
			if err := os.WriteFile(file, []byte("a = 1\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			prov := &providertest.Scripted{Steps: []providertest.Step{
				providertest.ToolCalls(providertest.ToolCall("c1", "ConfigEdit", `{"file":"`+file+`","old_string":"a = 1","new_string":"a = 2"}`)),
				{Events: providertest.TextEvents("done")},
			}}
			ap := &countingApprover{}
			cfg := Config{PermissionMode: tc.mode, Rules: tc.rules}
			if tc.approver {
				cfg.Approver = ap
			}
			h := newHarnessWith(t, prov, memory.New(), cfg, tools.Default().All()...)
			ce := tools.Typed[tools.ConfigEditInput](tools.ConfigEdit{Files: []string{file}})
			if _, err := h.ag.SubmitTurnInput(context.Background(), h.sess.ID, TurnInput{Text: "change it", Tools: []tools.Tool{ce}}); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(file)
			if written := string(got) == "a = 2\n"; written != tc.written {
				t.Fatalf("written = %v (%q), want %v", written, got, tc.written)
			}
			if tc.written && len(ap.asks) != 1 {
				t.Fatalf("asks = %v, want exactly one ask", ap.asks)
			}
			if tc.mode == permission.ModePlan {
				return
			}
			found := false
			for _, s := range prov.Request(0).Tools {
				found = found || s.Name == "ConfigEdit"
			}
			if !found {
				t.Fatal("the turn's request did not offer ConfigEdit")
			}
		})
	}
}

// TestConfigEditOnlyInItsTurn: without TurnInput.Tools the model's ConfigEdit
// call is an unknown tool and nothing is written; the turn after the
// /update-config turn has no ConfigEdit either.
func TestConfigEditOnlyInItsTurn(t *testing.T) {
	file := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(file, []byte("a = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	call := providertest.ToolCalls(providertest.ToolCall("c1", "ConfigEdit", `{"file":"`+file+`","old_string":"a = 1","new_string":"a = 2"}`))
	prov := &providertest.Scripted{Steps: []providertest.Step{call, {Events: providertest.TextEvents("done")}}}
	h := newHarnessWith(t, prov, memory.New(), Config{PermissionMode: permission.ModeBypass, Approver: &countingApprover{}}, tools.Default().All()...)
	h.submit(context.Background(), "change it")
	if got, _ := os.ReadFile(file); string(got) != "a = 1\n" {
		t.Fatalf("written without the turn tool: %q", got)
	}
	res := h.toolResults()["c1"]
	if !strings.Contains(res.Text, "unknown tool") {
		t.Fatalf("result: %q", res.Text)
	}
	for _, s := range prov.Request(0).Tools {
		if s.Name == "ConfigEdit" {
			t.Fatal("ConfigEdit offered outside its turn")
		}
	}
}

// TestConfigEditReportsABrokenFile: a write that leaves the file unparsable
// is reported in the tool result at once (an error result naming Check's
// error).
func TestConfigEditReportsABrokenFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(file, []byte("a = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "ConfigEdit", `{"file":"`+file+`","old_string":"a = 1","new_string":"a = = 2"}`)),
		{Events: providertest.TextEvents("done")},
	}}
	h := newHarnessWith(t, prov, memory.New(), Config{Approver: &countingApprover{}}, tools.Default().All()...)
	check := func(p string) error {
		b, _ := os.ReadFile(p)
		if strings.Contains(string(b), "= =") {
			return errors.New(p + ":1: expected a value")
		}
		return nil
	}
	ce := tools.Typed[tools.ConfigEditInput](tools.ConfigEdit{Files: []string{file}, Check: check})
	if _, err := h.ag.SubmitTurnInput(context.Background(), h.sess.ID, TurnInput{Text: "change it", Tools: []tools.Tool{ce}}); err != nil {
		t.Fatal(err)
	}
	var done event.ToolCompletedData
	for _, ev := range eventsOf(h.events(), event.ToolCompleted) {
		done = mustDecode[event.ToolCompletedData](t, ev)
	}
	if !done.IsError || !strings.Contains(done.Output, "NO LONGER PARSES") || !strings.Contains(done.Output, ":1: expected a value") {
		t.Fatalf("result: %+v", done)
	}
}
