package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"pincer/core/mcp/mcptest"
	"pincer/core/provider/openai/openaitest"
)

// mcpConfig writes a --mcp-config file (the .mcp.json shape) for the real
// server-everything and server-filesystem (allowed root: the repository).
func (e *env) mcpConfig() string {
	e.t.Helper()
	ev, fs := mcptest.Everything(e.t, "everything"), mcptest.Filesystem(e.t, "filesystem", e.repo)
	doc := map[string]any{"mcpServers": map[string]any{
		"everything": map[string]any{"command": ev.Command, "args": ev.Args},
		"filesystem": map[string]any{"command": fs.Command, "args": fs.Args},
	}}
	b, _ := json.Marshal(doc)
	path := filepath.Join(e.home, "mcp.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		e.t.Fatal(err)
	}
	return path
}

// toolMessages are the tool messages of a request, by call ID.
func toolMessages(req map[string]any) map[string]string {
	out := map[string]string{}
	for _, m := range req["messages"].([]any) {
		msg := m.(map[string]any)
		if msg["role"] == "tool" {
			id, _ := msg["tool_call_id"].(string)
			text, _ := msg["content"].(string)
			out[id] = text
		}
	}
	return out
}

// The real binary with real MCP servers: `pincer run` waits for them, the
// scripted model calls everything's echo and get-sum and filesystem's
// read_text_file; the results reach the model; the deny rule on write_file
// blocks it; a mcp__.* PreToolUse hook fires; the audit trail names the
// origin; the servers are gone when pincer exits.
func TestRunWithRealMCPServers(t *testing.T) {
	e := newEnv(t,
		openaitest.Reply{ToolCalls: []openaitest.Call{
			{ID: "m1", Name: "mcp__everything__echo", Args: `{"message":"through the binary"}`},
			{ID: "m2", Name: "mcp__everything__get-sum", Args: `{"a":40,"b":2}`},
			{ID: "m3", Name: "mcp__filesystem__read_text_file", Args: `{"path":"hello.txt"}`},
			{ID: "m4", Name: "mcp__filesystem__write_file", Args: `{"path":"pwned.txt","content":"PROOF"}`},
		}},
		openaitest.Reply{Text: "done"},
	)
	cfg := e.mcpConfig()
	marker := filepath.Join(e.home, "hook-fired")
	if err := os.MkdirAll(filepath.Join(e.repo, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.write(".claude/settings.json", `{"hooks":{"PreToolUse":[{"matcher":"mcp__.*","hooks":[{"type":"command","command":"cat >/dev/null; echo x >> `+marker+`"}]}]}}`)
	_, stderr, code := e.run(e.runArgs("--trust-project-hooks", "--mcp-config", cfg,
		"--allowed-tools", "mcp__everything mcp__filesystem__read_text_file",
		"--disallowed-tools", "mcp__filesystem__write_file", "use the MCP tools")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	reqs := e.fake.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests", len(reqs))
	}
	var offered []string
	for _, tl := range reqs[0]["tools"].([]any) {
		offered = append(offered, tl.(map[string]any)["function"].(map[string]any)["name"].(string))
	}
	if !strings.Contains(strings.Join(offered, " "), "mcp__everything__echo") {
		t.Errorf("the first request does not offer the MCP tools (pincer run waits for its servers): %v", offered)
	}
	got := toolMessages(reqs[1])
	for id, want := range map[string]string{"m1": "through the binary", "m2": "42", "m3": "hello world", "m4": "denied"} {
		if !strings.Contains(got[id], want) {
			t.Errorf("%s: the model read %q, want %q", id, got[id], want)
		}
	}
	if _, err := os.Stat(filepath.Join(e.repo, "pwned.txt")); err == nil {
		t.Error("the denied write_file wrote")
	}
	if b, _ := os.ReadFile(marker); strings.Count(string(b), "x") < 3 {
		t.Errorf("the mcp__.* hook fired %d times", strings.Count(string(b), "x"))
	}
	out, _, code := e.run("audit", "--json")
	var entries []struct{ Tool, Decision, Origin, Rule string }
	if code != 0 || json.Unmarshal([]byte(out), &entries) != nil {
		t.Fatalf("audit: %d %s", code, out)
	}
	origins := map[string]string{}
	for _, en := range entries {
		origins[en.Tool+" "+en.Decision] = en.Origin
		if en.Tool == "mcp__filesystem__write_file" && en.Rule != "mcp__filesystem__write_file" {
			t.Errorf("write_file was not denied by the rule: %+v", en)
		}
	}
	if origins["mcp__everything__echo allow"] != "mcp:everything" || origins["mcp__filesystem__write_file deny"] != "mcp:filesystem" {
		t.Errorf("audit: %+v", entries)
	}
	if fi, err := os.Stat(filepath.Join(e.home, "data", "mcp-logs", "everything.log")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("server log: %v %v", fi, err)
	}
	if pids := processesWith(e.repo); len(pids) > 0 {
		t.Errorf("MCP server processes outlived pincer: %v", pids)
	}
}

// processesWith lists the PIDs whose command line mentions arg.
func processesWith(arg string) []string {
	var pids []string
	ents, _ := os.ReadDir("/proc")
	for _, en := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", en.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), arg) {
			pids = append(pids, en.Name())
		}
	}
	return pids
}

// pincer killed with SIGKILL (no chance to stop anything) takes its stdio MCP
// servers with it: a server that ignores the end of its input (here one that
// never answers: bash exec'ing sleep under a name holding the repository's
// path) gets the parent-death signal.
func TestKilledPincerLeavesNoServer(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Text: "slow", Hold: 20 * time.Second})
	hang := filepath.Join(e.home, "hang.json")
	doc := `{"mcpServers": {"hang": {"command": "bash", "args": ["-c", "exec -a pincer-mcp-hang-` + e.repo + ` sleep 1000"]}}}`
	if err := os.WriteFile(hang, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := e.command(e.runArgs("--mcp-config", e.mcpConfig(), "--mcp-config", hang, "wait")...)
	cmd.Env = append(cmd.Env, "MCP_TIMEOUT=1500") // hang never gets ready: run goes on after 1.5 s
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	deadline := time.Now().Add(20 * time.Second)
	for len(e.fake.Requests()) == 0 { // the model call comes after the servers are up
		if time.Now().After(deadline) {
			t.Fatal("no model request")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if pids := processesWith(e.repo); len(pids) < 2 {
		t.Fatalf("the filesystem and hang servers are not both running while pincer waits for the model: %v", pids)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	for time.Now().Before(deadline) && len(processesWith(e.repo)) > 0 {
		time.Sleep(50 * time.Millisecond)
	}
	if pids := processesWith(e.repo); len(pids) > 0 {
		t.Errorf("MCP servers outlived a killed pincer: %v", pids)
	}
}

// A server that fails to start is a warning on stderr naming it and why; the
// run goes on without it.
func TestRunWarnsOfAFailedServer(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Text: "fine"})
	doc := `{"mcpServers": {"broken": {"command": "/nonexistent/mcp-server"}}}`
	out, stderr, code := e.run(e.runArgs("--mcp-config", doc, "hi")...)
	if code != 0 || strings.TrimSpace(out) != "fine" {
		t.Fatalf("exit %d out %q err %s", code, out, stderr)
	}
	if !strings.Contains(stderr, "pincer: warning: MCP server broken failed: ") || !strings.Contains(stderr, "no such file") {
		t.Errorf("stderr: %q", stderr)
	}
}

// The model as the adversary, through the real binary and real servers: in
// bypassPermissions with a deny rule on mcp__filesystem__write_file, forms of
// that name (case, underscores, whitespace, look-alike and zero-width
// characters) are unknown tools and the exact name is denied; in plan mode
// every MCP call is refused. No PROOF file appears; control: an allowed write
// to another path through a server-level allow works.
func TestAttackMCPToolNames(t *testing.T) {
	forms := []string{"mcp__filesystem__write_file", "MCP__filesystem__write_file", "mcp__Filesystem__write_file",
		"mcp__filesystem___write_file", "mcp__filesystem__write_file ", "mcp__filesystem__wrіte_file",
		"mcp__filesystem__write_file\u200b", "mcp__filesystem__write__file"}
	var calls []openaitest.Call
	for i, f := range forms {
		calls = append(calls, openaitest.Call{ID: fmt.Sprintf("a%d", i), Name: f, Args: fmt.Sprintf(`{"path":"PROOF-%d.txt","content":"PROOF"}`, i)})
	}
	e := newEnv(t, openaitest.Reply{ToolCalls: calls}, openaitest.Reply{Text: "done"})
	cfg := e.mcpConfig()
	_, stderr, code := e.run(e.runArgs("--mcp-config", cfg, "--permission-mode", "bypassPermissions",
		"--disallowed-tools", "mcp__filesystem__write_file", "write")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := toolMessages(e.fake.Requests()[1])
	for i, f := range forms {
		if _, err := os.Stat(filepath.Join(e.repo, fmt.Sprintf("PROOF-%d.txt", i))); err == nil {
			t.Errorf("%q wrote its PROOF file", f)
		}
		r := got[fmt.Sprintf("a%d", i)]
		if i == 0 && !strings.Contains(r, "denied") || i > 0 && !strings.Contains(r, "unknown tool") {
			t.Errorf("%q: %q", f, r)
		}
	}

	e.fake.Push(openaitest.Reply{ToolCalls: []openaitest.Call{
		{ID: "p1", Name: "mcp__filesystem__write_file", Args: `{"path":"PROOF-plan.txt","content":"PROOF"}`},
		{ID: "p2", Name: "mcp__everything__echo", Args: `{"message":"x"}`},
	}}, openaitest.Reply{Text: "done"})
	if _, stderr, code := e.run(e.runArgs("--mcp-config", cfg, "--permission-mode", "plan", "--allowed-tools", "mcp__everything", "plan it")...); code != 0 {
		t.Fatalf("plan: exit %d: %s", code, stderr)
	}
	reqs := e.fake.Requests()
	got = toolMessages(reqs[len(reqs)-1])
	if _, err := os.Stat(filepath.Join(e.repo, "PROOF-plan.txt")); err == nil {
		t.Error("plan mode ran write_file")
	}
	for _, id := range []string{"p1", "p2"} {
		if strings.Contains(got[id], "Echo:") || !strings.Contains(strings.ToLower(got[id]), "plan mode") {
			t.Errorf("plan mode: %s read %q", id, got[id])
		}
	}

	e.fake.Push(openaitest.Reply{ToolCalls: []openaitest.Call{
		{ID: "c1", Name: "mcp__filesystem__write_file", Args: `{"path":"` + filepath.Join(e.repo, "control.txt") + `","content":"ok"}`},
	}}, openaitest.Reply{Text: "done"})
	if _, stderr, code := e.run(e.runArgs("--mcp-config", cfg, "--allowed-tools", "mcp__filesystem", "control")...); code != 0 {
		t.Fatalf("control: exit %d: %s", code, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(e.repo, "control.txt")); err != nil || string(b) != "ok" {
		t.Errorf("control: the allowed write did not land: %v %q", err, b)
	}
}
