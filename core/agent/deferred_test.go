package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"pincer/core/permission"
	"pincer/core/prompt"
	"pincer/core/provider"
	"pincer/core/provider/openai"
	"pincer/core/provider/openai/openaitest"
	"pincer/persist"
	"pincer/persist/memory"
	"pincer/tools"
)

// wireTools returns the tool names of a Chat Completions request body.
func wireTools(req map[string]any) []string {
	var names []string
	list, _ := req["tools"].([]any)
	for _, el := range list {
		fn, _ := el.(map[string]any)["function"].(map[string]any)
		n, _ := fn["name"].(string)
		names = append(names, n)
	}
	return names
}

// wireSystem returns the system message's text of a request body.
func wireSystem(req map[string]any) string {
	msgs, _ := req["messages"].([]any)
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if mm["role"] == "system" {
			s, _ := mm["content"].(string)
			return s
		}
	}
	return ""
}

func mcpNames(names []string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, "mcp__") {
			out = append(out, n)
		}
	}
	return out
}

// deferredHarness is an agent with the built-in tools and server-everything's
// over the real Chat Completions adapter and its test server.
func deferredHarness(t *testing.T, store persist.Store, cfg Config, srv *openaitest.Server) (*harness, *int32Counter) {
	t.Helper()
	ev, runs := everythingTools(t)
	cfg.Provider = openai.New(openai.Config{HTTPConfig: provider.HTTPConfig{BaseURL: srv.BaseURL(), MaxRetries: -1}})
	h := newHarnessWith(t, nil, store, cfg, append(tools.Default().All(), ev...)...)
	return h, &int32Counter{runs}
}

type int32Counter struct{ c interface{ Load() int32 } }

func (c *int32Counter) n() int { return int(c.c.Load()) }

var always = tools.SearchPolicy{Mode: tools.SearchAlways}

// systemPrompt is a rendered prompt of a static and a dynamic segment.
var systemPrompt = prompt.Render([]prompt.Segment{{Name: "identity", Text: "You are a test.", Static: true}, {Name: "environment", Text: "dynamic part"}})

// TestDeferredToolsThroughTheEngine: the first request carries no deferred
// schema but ToolSearch and the announcement in the dynamic segment; a call of
// a deferred tool before loading it is refused, unrun, with a readable
// result; ToolSearch loads it; the next request carries its schema; a resumed
// session (a new agent over the same store) and a compacted one keep it.
func TestDeferredToolsThroughTheEngine(t *testing.T) {
	srv := openaitest.New(
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c1", Name: "mcp__everything__echo", Args: `{"message":"early"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c2", Name: "ToolSearch", Args: `{"query":"select:mcp__everything__echo"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c3", Name: "mcp__everything__echo", Args: `{"message":"hi"}`}}},
		openaitest.Reply{Text: "echoed"},
	)
	defer srv.Close()
	store := memory.New()
	h, runs := deferredHarness(t, store, Config{PermissionMode: permission.ModeBypass, SystemPrompt: systemPrompt, ToolSearch: always}, srv)
	res := h.submit(context.Background(), "echo hi")
	if res.Outcome != OutcomeCompleted {
		t.Fatalf("turn: %s %v", res.Outcome, res.Err)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	first := wireTools(reqs[0])
	if got := mcpNames(first); got != nil {
		t.Errorf("the first request carries deferred schemas: %v", got)
	}
	if !slices.Contains(first, "ToolSearch") || !slices.Contains(first, "Read") {
		t.Errorf("first request tools %v: want the built-ins and ToolSearch", first)
	}
	body, _ := json.Marshal(reqs[0])
	if strings.Contains(string(body), "Message to echo") {
		t.Error("the first request body holds echo's schema")
	}
	// The adapter sends the marker's two sides as one text: the static side
	// comes first, unchanged, and the announcement after it.
	sys := wireSystem(reqs[0])
	static, _, _ := prompt.Split(systemPrompt)
	rest, ok := strings.CutPrefix(sys, static)
	if !ok || !strings.Contains(rest, "dynamic part") || !strings.Contains(rest, "# Deferred tools") ||
		!strings.Contains(rest, "- mcp__everything__echo: Echoes back the input string") {
		t.Errorf("announcement not after the static segment:\n%s", sys)
	}
	results := h.toolResults()
	if r := results["c1"]; !r.IsError || !strings.Contains(r.Text, `Load it first with ToolSearch (query "select:mcp__everything__echo")`) {
		t.Errorf("calling before loading: %+v", r)
	}
	if r := results["c2"]; r.IsError || !strings.Contains(r.Text, `"name":"mcp__everything__echo"`) || !strings.Contains(r.Text, "Message to echo") {
		t.Errorf("ToolSearch result: %+v", r)
	}
	if r := results["c3"]; r.IsError || r.Text != `mcp__everything__echo ran with {"message":"hi"}` {
		t.Errorf("the loaded tool's call: %+v", r)
	}
	if runs.n() != 1 {
		t.Errorf("server tools ran %d times, want once (ToolSearch and the early call run nothing)", runs.n())
	}
	if got := mcpNames(wireTools(reqs[2])); !slices.Equal(got, []string{"mcp__everything__echo"}) {
		t.Errorf("after ToolSearch the request offers %v", got)
	}
	if dyn := wireSystem(reqs[2]); strings.Contains(dyn, "- mcp__everything__echo") ||
		!strings.Contains(dyn, "- mcp__everything__get-sum") {
		t.Errorf("after loading, the announcement: %q", dyn)
	}

	// Resume: a new agent (another process) over the same store.
	srv.Push(openaitest.Reply{Text: "again"})
	h2, _ := deferredHarness(t, store, Config{PermissionMode: permission.ModeBypass, ToolSearch: always}, srv)
	if _, err := h2.ag.SubmitTurn(context.Background(), h.sess.ID, "and again"); err != nil {
		t.Fatal(err)
	}
	reqs = srv.Requests()
	if got := mcpNames(wireTools(reqs[len(reqs)-1])); !slices.Equal(got, []string{"mcp__everything__echo"}) {
		t.Errorf("resumed: the request offers %v", got)
	}

	// Compaction: the ToolSearch result leaves the view, the tool stays loaded.
	srv.Push(openaitest.Reply{Text: "summary of it all"}, openaitest.Reply{Text: "after compaction"})
	if _, err := h2.ag.SubmitTurn(context.Background(), h.sess.ID, "/compact"); err != nil {
		t.Fatal(err)
	}
	if _, err := h2.ag.SubmitTurn(context.Background(), h.sess.ID, "go on"); err != nil {
		t.Fatal(err)
	}
	reqs = srv.Requests()
	last := reqs[len(reqs)-1]
	if b, _ := json.Marshal(last["messages"]); strings.Contains(string(b), "select:mcp__everything__echo") {
		t.Fatal("fixture: the view after compaction still holds the ToolSearch call")
	}
	if got := mcpNames(wireTools(last)); !slices.Equal(got, []string{"mcp__everything__echo"}) {
		t.Errorf("after compaction: the request offers %v", got)
	}
}

// TestDeferralFollowsThePolicy: under auto the 13 tools of server-everything
// (1,528 estimated tokens) are deferred only with a window small enough; under
// never they are all offered and ToolSearch is not.
func TestDeferralFollowsThePolicy(t *testing.T) {
	cases := []struct {
		name        string
		policy      tools.SearchPolicy
		window      int64
		deferred    bool
		offerSearch bool
	}{
		{"auto, 200k window", tools.SearchPolicy{}, 200_000, false, false},
		{"auto, 16k window", tools.SearchPolicy{}, 16_000, false, false},
		{"auto, 12k window", tools.SearchPolicy{}, 12_000, true, true},
		{"auto:1, 200k window", tools.SearchPolicy{Percent: 1}, 200_000, false, false},
		{"auto:1, 100k window", tools.SearchPolicy{Percent: 1}, 100_000, true, true},
		{"always", tools.SearchPolicy{Mode: tools.SearchAlways}, 200_000, true, true},
		{"never", tools.SearchPolicy{Mode: tools.SearchNever}, 16_000, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev, _ := everythingTools(t)
			h := newHarnessWith(t, nil, memory.New(), Config{ToolSearch: c.policy, ContextWindow: c.window},
				append(tools.Default().All(), ev...)...)
			o := h.ag.makeOffer(nil, nil)
			var offered []string
			for _, s := range o.specs {
				offered = append(offered, s.Name)
			}
			if got := len(mcpNames(offered)) == 0; got != c.deferred {
				t.Errorf("offered %v; deferred %v, want %v", offered, got, c.deferred)
			}
			if got := slices.Contains(offered, "ToolSearch"); got != c.offerSearch {
				t.Errorf("ToolSearch offered %v, want %v", got, c.offerSearch)
			}
			if c.deferred != (o.announce != "") || c.deferred != (len(o.pending) == 13) {
				t.Errorf("announce %q, %d pending", o.announce, len(o.pending))
			}
		})
	}
}

// TestMakeOffer covers the offer's pure decisions: the loaded tools come after
// the others, plan mode hides writing tools from the deferred ones too, a tool
// denied outright is neither offered nor announced, and without ToolSearch in
// the registry nothing is deferred.
func TestMakeOffer(t *testing.T) {
	mk := func(name string, kind tools.Kind) tools.Tool {
		return mcpFixtureTool{spec: tools.Spec{Name: name, Description: "about " + name + "\nsecond line", Schema: json.RawMessage(`{"type":"object"}`),
			Kind: kind, Defer: tools.DeferAlways}}
	}
	reg := []tools.Tool{tools.Typed(tools.Read{}), mk("mcp__s__a", tools.KindExecute), mk("mcp__s__b", tools.KindRead),
		mk("mcp__s__c", tools.KindExecute), tools.Typed(tools.ToolSearch{}), tools.Typed(tools.Write{})}
	names := func(o offer) string {
		var out []string
		for _, s := range o.specs {
			out = append(out, s.Name)
		}
		return strings.Join(out, ",")
	}
	h := newHarnessWith(t, nil, memory.New(), Config{}, reg...)
	o := h.ag.makeOffer(map[string]bool{"mcp__s__a": true, "nope": true}, func(s tools.Spec) bool { return s.Name == "mcp__s__c" })
	if got := names(o); got != "Read,ToolSearch,Write,mcp__s__a" {
		t.Errorf("offered %s", got)
	}
	if o.announce != "# Deferred tools\nThese tools are available but not loaded: their definitions are not in your tool list. Load the ones you need with ToolSearch (query \"select:NAME1,NAME2\", or keywords) before calling them.\n- mcp__s__b: about mcp__s__b" {
		t.Errorf("announce %q", o.announce)
	}
	if len(o.deferred) != 2 || !o.pending["mcp__s__b"] || o.pending["mcp__s__a"] || o.pending["mcp__s__c"] {
		t.Errorf("deferred %v pending %v", o.deferred, o.pending)
	}
	h.ag.SetPermissionMode(permission.ModePlan)
	o = h.ag.makeOffer(nil, nil)
	if got := names(o); got != "Read,ToolSearch" || len(o.deferred) != 3 { // Write hidden; Bash-like kinds stay
		t.Errorf("plan mode: offered %s, deferred %v", got, o.deferred)
	}
	h2 := newHarnessWith(t, nil, memory.New(), Config{}, reg[:4]...)
	if got := names(h2.ag.makeOffer(nil, nil)); got != "Read,mcp__s__a,mcp__s__b,mcp__s__c" {
		t.Errorf("no ToolSearch registered: offered %s", got)
	}
	long := strings.Repeat("é", 300)
	if got := shortDescription("\n\n  " + long); len([]rune(got)) != announceDescRunes || !strings.HasSuffix(got, "…") {
		t.Errorf("shortDescription cut to %d runes", len([]rune(got)))
	}
}

var _ = fmt.Sprintf
