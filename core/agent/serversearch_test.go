package agent

import (
	"context"
	"testing"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
)

// searchStep is a model reply in which the provider's server searched for q:
// text, the server_tool_use block, its results, and the cited answer.
func searchStep(id, q string) providertest.Step {
	return providertest.Step{Events: []provider.Event{
		{Type: provider.EventTextDelta, Text: "Searching."},
		{Type: provider.EventServerBlock, Block: message.Part{Type: message.PartServerBlock, ToolName: serverToolUse,
			ToolCallID: id, Input: `{"query":"` + q + `"}`, Raw: `{"type":"server_tool_use","id":"` + id + `","name":"web_search","input":{"query":"` + q + `"}}`}},
		{Type: provider.EventServerBlock, Block: message.Part{Type: message.PartServerBlock, ToolName: serverSearchHit,
			ToolCallID: id, Text: "Go 1.26 <https://go.dev/doc/go1.26>", Raw: `{"type":"web_search_tool_result","tool_use_id":"` + id + `","content":[]}`}},
		{Type: provider.EventTextDelta, Text: "Found it."},
		{Type: provider.EventUsage, Usage: message.Usage{InputTokens: 10, OutputTokens: 5, WebSearchRequests: 1}},
		{Type: provider.EventDone, FinishReason: "end_turn"},
	}}
}

// TestServerWebSearch: with WebSearch allowed by a rule, each call declares the
// server tool with the searches left; the blocks are stored in stream order, each
// search is audited and shown as a WebSearch call (tool.started with the query,
// tool.completed with the results); the cap counts the stored searches.
func TestServerWebSearch(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{searchStep("srvtoolu_1", "go 1.26"), searchStep("srvtoolu_2", "go 1.27")}}
	rules := permission.RuleSet{}.Add(permission.Allow, permission.Rule{Tool: "WebSearch", Source: "test"})
	h := newHarnessWith(t, prov, memory.New(), Config{PermissionMode: permission.ModeDefault, Rules: rules,
		WebSearch: &provider.WebSearch{MaxUses: 2, BlockedDomains: []string{"x.example"}}})
	if res := h.submit(context.Background(), "what is new?"); res.Err != nil {
		t.Fatal(res.Err)
	}
	if ws := prov.Request(0).WebSearch; ws == nil || ws.MaxUses != 2 || len(ws.BlockedDomains) != 1 {
		t.Fatalf("first call declared %+v", ws)
	}
	msgs := h.messages()
	reply := msgs[len(msgs)-1]
	var types []string
	for _, p := range reply.Parts {
		types = append(types, string(p.Type)+":"+p.ToolName)
	}
	if len(reply.Parts) != 4 || reply.Parts[1].Raw == "" || reply.Parts[2].ToolName != serverSearchHit || reply.Text() != "Searching.Found it." {
		t.Fatalf("stored parts %v", types)
	}
	if reply.Usage == nil || reply.Usage.WebSearchRequests != 1 {
		t.Fatalf("usage %+v", reply.Usage)
	}
	started := eventsOf(h.events(), event.ToolStarted)
	completed := eventsOf(h.events(), event.ToolCompleted)
	if len(started) != 1 || len(completed) != 1 {
		t.Fatalf("%d tool.started, %d tool.completed", len(started), len(completed))
	}
	if s := mustDecode[event.ToolStartedData](t, started[0]); s.Name != "WebSearch" || s.Summary != `WebSearch "go 1.26"` || s.ToolCallID != "srvtoolu_1" {
		t.Errorf("tool.started %+v", s)
	}
	if c := mustDecode[event.ToolCompletedData](t, completed[0]); c.Output != "Go 1.26 <https://go.dev/doc/go1.26>" || c.IsError {
		t.Errorf("tool.completed %+v", c)
	}
	audit, err := h.store.ListAudit(context.Background(), h.sess.ID, 0)
	if err != nil || len(audit) != 1 || audit[0].Tool != "WebSearch" || audit[0].Decision != "allow" ||
		audit[0].ToolCallID != "srvtoolu_1" || audit[0].Rule != "WebSearch" {
		t.Fatalf("audit %+v (%v)", audit, err)
	}

	// The second turn has one search left; after it, none: not declared.
	h.submit(context.Background(), "and next?")
	if ws := prov.Request(1).WebSearch; ws == nil || ws.MaxUses != 1 {
		t.Fatalf("second call declared %+v", ws)
	}
	prov.Push(providertest.Text("no more"))
	h.submit(context.Background(), "more?")
	if ws := prov.Request(2).WebSearch; ws != nil {
		t.Fatalf("cap used, yet declared %+v", ws)
	}
}

// TestServerWebSearchNeedsPermission: the server tool is declared only when
// WebSearch is allowed without asking — a rule or the mode — never when it would
// ask (nobody can be asked about a search the server runs) or is denied.
func TestServerWebSearchNeedsPermission(t *testing.T) {
	allow := permission.RuleSet{}.Add(permission.Allow, permission.Rule{Tool: "WebSearch"})
	deny := allow.Add(permission.Deny, permission.Rule{Tool: "WebSearch"})
	for _, tc := range []struct {
		name    string
		mode    permission.Mode
		rules   permission.RuleSet
		declare bool
	}{
		{"default mode, no rule", permission.ModeDefault, permission.RuleSet{}, false},
		{"acceptEdits, no rule", permission.ModeAcceptEdits, permission.RuleSet{}, false},
		{"plan, no rule", permission.ModePlan, permission.RuleSet{}, false},
		{"bypassPermissions", permission.ModeBypass, permission.RuleSet{}, true},
		{"allow rule", permission.ModeDefault, allow, true},
		{"deny beats allow", permission.ModeBypass, deny, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prov := &providertest.Scripted{Steps: []providertest.Step{providertest.Text("ok")}}
			h := newHarnessWith(t, prov, memory.New(), Config{PermissionMode: tc.mode, Rules: tc.rules,
				WebSearch: &provider.WebSearch{MaxUses: 5}})
			h.submit(context.Background(), "hi")
			if got := prov.Request(0).WebSearch != nil; got != tc.declare {
				t.Fatalf("declared %v, want %v", got, tc.declare)
			}
		})
	}
}

// TestServerBlockUndeclared: a server block in a call that declared no server
// tool is not kept (it cannot be one of ours).
func TestServerBlockUndeclared(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{searchStep("srvtoolu_1", "q")}}
	h := newHarness(t, prov, permission.ModeDefault)
	h.submit(context.Background(), "hi")
	msgs := h.messages()
	if n := serverSearches(msgs); n != 0 || len(eventsOf(h.events(), event.ToolStarted)) != 0 {
		t.Fatalf("undeclared blocks kept: %d", n)
	}
}

// TestServerWebSearchPauseTurn: a reply that stops with pause_turn (the server
// paused a long search run) goes back as the last message of the next call, in
// the same turn, and the turn ends with the continued answer; the searches are
// still counted against the cap.
func TestServerWebSearchPauseTurn(t *testing.T) {
	paused := searchStep("srvtoolu_1", "go 1.26")
	paused.Events[len(paused.Events)-1].FinishReason = stopPauseTurn
	prov := &providertest.Scripted{Steps: []providertest.Step{paused, providertest.Text(" The answer.")}}
	rules := permission.RuleSet{}.Add(permission.Allow, permission.Rule{Tool: "WebSearch", Source: "test"})
	h := newHarnessWith(t, prov, memory.New(), Config{PermissionMode: permission.ModeDefault, Rules: rules,
		WebSearch: &provider.WebSearch{MaxUses: 3}})
	res := h.submit(context.Background(), "what is new?")
	if res.Err != nil || res.Outcome != OutcomeCompleted || res.StopReason != "stop" || res.FinalText != " The answer." {
		t.Fatalf("turn: %+v", res)
	}
	if prov.Calls() != 2 {
		t.Fatalf("%d model calls, want 2", prov.Calls())
	}
	second := prov.Request(1)
	last := second.Messages[len(second.Messages)-1]
	if last.Role != message.RoleAssistant || last.Text() != "Searching.Found it." || len(last.Parts) != 4 {
		t.Fatalf("the paused reply did not go back as is: %s %q (%d parts)", last.Role, last.Text(), len(last.Parts))
	}
	if ws := second.WebSearch; ws == nil || ws.MaxUses != 2 {
		t.Fatalf("the continued call declared %+v", ws)
	}
	if n := len(eventsOf(h.events(), event.TurnStarted)); n != 1 {
		t.Fatalf("%d turns", n)
	}
}
