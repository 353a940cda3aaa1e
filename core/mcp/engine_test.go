package mcp_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"pincer/core/agent"
	"pincer/core/hook"
	"pincer/core/mcp"
	"pincer/core/mcp/mcptest"
	"pincer/core/permission"
	"pincer/core/prompt"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
	"pincer/persist"
	"pincer/persist/memory"
	"pincer/sandbox"
	"pincer/tools"
)

// engine is the real agent over a memory store, a scripted model and the
// registry an MCP Manager fills with real servers' tools.
type engine struct {
	t     *testing.T
	m     *mcp.Manager
	ag    *agent.Agent
	store persist.Store
	prov  *providertest.Scripted
	sess  string
	root  string // the filesystem server's root (the workspace)
}

func newEngine(t *testing.T, prov *providertest.Scripted, cfg agent.Config, servers func(root string) []mcp.ServerConfig) *engine {
	t.Helper()
	root := t.TempDir()
	reg := tools.NewRegistry(tools.Default().All()...)
	m := startManager(t, mcp.Options{Registry: reg, MinBackoff: 100 * time.Millisecond}, servers(root)...)
	ws, err := sandbox.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	store := memory.New()
	cfg.Store, cfg.Tools, cfg.Workspace, cfg.Provider = store, reg, ws, prov
	cfg.Model, cfg.ModelName, cfg.SystemPrompt, cfg.DeltaInterval = "m", "fake/m", "You are a test.\n"+prompt.DynamicMarker+"\n", time.Millisecond
	cfg.DynamicPrompt = func() string { return m.Instructions() }
	ag, err := agent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := ag.CreateSession(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return &engine{t: t, m: m, ag: ag, store: store, prov: prov, sess: sess.ID, root: root}
}

func bothServers(t *testing.T) func(string) []mcp.ServerConfig {
	return func(root string) []mcp.ServerConfig {
		return []mcp.ServerConfig{mcptest.Everything(t, "everything"), mcptest.Filesystem(t, "filesystem", root)}
	}
}

func (e *engine) submit(input string) {
	e.t.Helper()
	res, err := e.ag.SubmitTurn(context.Background(), e.sess, input)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Logf("turn: %+v", res)
}

// results are the tool results the model read in request i, by call ID.
func results(req provider.Request) map[string]string {
	out := map[string]string{}
	for _, msg := range req.Messages {
		if r, ok := msg.ToolResult(); ok {
			out[r.ToolCallID] = r.Text
		}
	}
	return out
}

func rules(t *testing.T, deny ...string) permission.RuleSet {
	var rs permission.RuleSet
	for _, d := range deny {
		r, err := permission.ParseRule(d)
		if err != nil {
			t.Fatal(err)
		}
		rs = rs.Add(permission.Deny, r)
	}
	return rs
}

// A scripted model calls server-everything's echo and get-sum and
// server-filesystem's read_text_file and list_directory; the results reach
// the model's next request; a deny rule on mcp__filesystem__write_file blocks
// it (no file); a PreToolUse hook matching mcp__.* fires for each call; the
// audit trail names each call's origin.
func TestEngineCallsRealServers(t *testing.T) {
	hookDir := t.TempDir()
	marker := filepath.Join(hookDir, "hook-fired")
	hooks, errs := hook.NewRunner(map[hook.Event][]hook.Def{hook.PreToolUse: {{Matcher: "mcp__.*",
		Command: "cat >/dev/null; echo x >> " + marker}}}, hookDir)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var e *engine
	prov := &providertest.Scripted{Respond: func(n int, req provider.Request) providertest.Step {
		if n == 1 {
			return providertest.ToolCalls(
				providertest.ToolCall("c1", "mcp__everything__echo", `{"message":"hello mcp"}`),
				providertest.ToolCall("c2", "mcp__everything__get-sum", `{"a":19,"b":23}`),
				providertest.ToolCall("c3", "mcp__filesystem__read_text_file", `{"path":"`+filepath.Join(e.root, "in.txt")+`"}`),
				providertest.ToolCall("c4", "mcp__filesystem__list_directory", `{"path":"`+e.root+`"}`),
				providertest.ToolCall("c5", "mcp__filesystem__write_file", `{"path":"`+filepath.Join(e.root, "pwned.txt")+`","content":"PROOF"}`),
			)
		}
		return providertest.Text("done")
	}}
	e = newEngine(t, prov, agent.Config{PermissionMode: permission.ModeBypass, Hooks: hooks,
		Rules: rules(t, "mcp__filesystem__write_file")}, bothServers(t))
	if err := os.WriteFile(filepath.Join(e.root, "in.txt"), []byte("file-marker-77"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.submit("use the MCP tools")
	if prov.Calls() != 2 {
		t.Fatalf("%d model calls", prov.Calls())
	}
	got := results(prov.Request(1))
	for id, want := range map[string]string{"c1": "hello mcp", "c2": "42", "c3": "file-marker-77", "c4": "in.txt", "c5": "denied"} {
		if !strings.Contains(got[id], want) {
			t.Errorf("%s: the model read %q, want it to contain %q", id, got[id], want)
		}
	}
	if _, err := os.Stat(filepath.Join(e.root, "pwned.txt")); err == nil {
		t.Error("the denied write_file wrote its file")
	}
	if b, _ := os.ReadFile(marker); strings.Count(string(b), "x") < 4 {
		t.Errorf("the mcp__.* hook fired %d times", strings.Count(string(b), "x"))
	}
	audit, err := e.store.ListAudit(context.Background(), e.sess, 0)
	if err != nil {
		t.Fatal(err)
	}
	origins := map[string]string{}
	for _, a := range audit {
		origins[a.Tool] = a.Origin
	}
	if origins["mcp__everything__echo"] != "mcp:everything" || origins["mcp__filesystem__write_file"] != "mcp:filesystem" {
		t.Errorf("audit origins: %v", origins)
	}
	sys := prov.Request(0).Messages[0].Text()
	if !strings.Contains(sys, "## everything") {
		t.Errorf("the server's instructions are not in the prompt: %.300s", sys)
	}
}

// A server-level rule mcp__filesystem denies every tool of that server only.
func TestEngineServerLevelRule(t *testing.T) {
	prov := &providertest.Scripted{Respond: func(n int, req provider.Request) providertest.Step {
		if n == 1 {
			return providertest.ToolCalls(
				providertest.ToolCall("c1", "mcp__filesystem__list_allowed_directories", `{}`),
				providertest.ToolCall("c2", "mcp__everything__echo", `{"message":"still fine"}`))
		}
		return providertest.Text("done")
	}}
	e := newEngine(t, prov, agent.Config{PermissionMode: permission.ModeBypass, Rules: rules(t, "mcp__filesystem")}, bothServers(t))
	e.submit("go")
	got := results(prov.Request(1))
	if !strings.Contains(got["c1"], "denied") || !strings.Contains(got["c2"], "still fine") {
		t.Errorf("results: %q", got)
	}
}

// Killing the server in the middle of a call: the model reads a result
// naming the server and the failure; the server reconnects and a later call works.
func TestEngineServerKilledMidSession(t *testing.T) {
	var e *engine
	var pid int
	prov := &providertest.Scripted{Respond: func(n int, req provider.Request) providertest.Step {
		switch n {
		case 1:
			pid = e.m.PID("everything")
			go func() { time.Sleep(700 * time.Millisecond); syscall.Kill(pid, syscall.SIGKILL) }()
			return providertest.ToolCalls(providertest.ToolCall("c1", "mcp__everything__trigger-long-running-operation", `{"duration":10,"steps":5}`))
		case 2:
			waitFor(t, "reconnect", func() bool {
				st, _ := e.m.State("everything")
				return st.Status == mcp.StatusReady && e.m.PID("everything") != pid && e.m.PID("everything") != 0 // 0: the old session closed, its state not yet failed
			})
			return providertest.ToolCalls(providertest.ToolCall("c2", "mcp__everything__echo", `{"message":"after the crash"}`))
		}
		return providertest.Text("done")
	}}
	e = newEngine(t, prov, agent.Config{PermissionMode: permission.ModeBypass}, func(string) []mcp.ServerConfig {
		return []mcp.ServerConfig{mcptest.Everything(t, "everything")}
	})
	e.submit("go")
	if prov.Calls() != 3 {
		t.Fatalf("%d model calls", prov.Calls())
	}
	if got := results(prov.Request(1))["c1"]; !strings.Contains(got, "MCP server everything disconnected") {
		t.Errorf("the killed call read %q", got)
	}
	if got := results(prov.Request(2))["c2"]; !strings.Contains(got, "after the crash") {
		t.Errorf("the call after the reconnect read %q", got)
	}
}
