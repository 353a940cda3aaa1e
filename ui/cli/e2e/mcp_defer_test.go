package e2e

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// offeredTools are the tool names of a request body.
func offeredTools(req map[string]any) []string {
	var out []string
	list, _ := req["tools"].([]any)
	for _, tl := range list {
		out = append(out, tl.(map[string]any)["function"].(map[string]any)["name"].(string))
	}
	return out
}

// The real binary with the real server-everything and server-filesystem and
// ENABLE_TOOL_SEARCH=true: the first request carries no MCP schema but
// ToolSearch and the servers' tools named in the system prompt; calling echo
// before loading it is refused unrun; ToolSearch loads it; the next request
// carries its schema and the call reaches the server.
func TestRunDefersRealMCPTools(t *testing.T) {
	e := newEnv(t,
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "m1", Name: "mcp__everything__echo", Args: `{"message":"too early"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "s1", Name: "ToolSearch", Args: `{"query":"select:mcp__everything__echo"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "m2", Name: "mcp__everything__echo", Args: `{"message":"loaded now"}`}}},
		openaitest.Reply{Text: "done"},
	)
	cfg := e.mcpConfig()
	cmd := e.command(e.runArgs("--mcp-config", cfg, "--allowed-tools", "mcp__everything", "echo through a deferred tool")...)
	cmd.Env = append(cmd.Env, "ENABLE_TOOL_SEARCH=true")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatal(err)
		}
		t.Fatalf("pincer run: %v: %s", err, stderr.String())
	}
	reqs := e.fake.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d model requests", len(reqs))
	}
	first := offeredTools(reqs[0])
	for _, n := range first {
		if strings.HasPrefix(n, "mcp__") {
			t.Errorf("the first request carries an MCP schema: %v", first)
			break
		}
	}
	if !strings.Contains(strings.Join(first, " "), "ToolSearch") {
		t.Errorf("ToolSearch not offered: %v", first)
	}
	var system string
	for _, m := range reqs[0]["messages"].([]any) {
		if msg := m.(map[string]any); msg["role"] == "system" {
			system, _ = msg["content"].(string)
		}
	}
	if !strings.Contains(system, "# Deferred tools") || !strings.Contains(system, "- mcp__everything__echo: ") ||
		!strings.Contains(system, "- mcp__filesystem__read_text_file: ") {
		t.Errorf("the system prompt does not announce the deferred tools:\n%s", system)
	}
	if got := toolMessages(reqs[1])["m1"]; !strings.Contains(got, `select:mcp__everything__echo`) || !strings.Contains(got, "not loaded") {
		t.Errorf("calling before loading: %q", got)
	}
	if got := toolMessages(reqs[2])["s1"]; !strings.Contains(got, `"name":"mcp__everything__echo"`) {
		t.Errorf("ToolSearch result: %q", got)
	}
	third := strings.Join(offeredTools(reqs[2]), " ")
	if !strings.Contains(third, "mcp__everything__echo") || strings.Contains(third, "mcp__everything__get-sum") {
		t.Errorf("after loading echo the request offers %s", third)
	}
	if got := toolMessages(reqs[3])["m2"]; !strings.Contains(got, "loaded now") {
		t.Errorf("the loaded tool's call: %q", got)
	}

	// The same first request with tool search off, for docs/BENCHMARKS.md.
	e.fake.Push(openaitest.Reply{Text: "done"})
	cmd = e.command(e.runArgs("--mcp-config", cfg, "echo through a deferred tool")...)
	cmd.Env = append(cmd.Env, "ENABLE_TOOL_SEARCH=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pincer run: %v: %s", err, out)
	}
	reqs = e.fake.Requests()
	all := reqs[len(reqs)-1]
	if n := len(offeredTools(all)); n <= len(first) {
		t.Fatalf("with tool search off %d tools are offered, deferred %d", n, len(first))
	}
	size := func(v any) int { b, _ := json.Marshal(v); return len(b) }
	t.Logf("first request with the real servers: %d bytes, %d tools (%d bytes of definitions) offered in full; deferred: %d bytes, %d tools (%d bytes)",
		size(all), len(offeredTools(all)), size(all["tools"]), size(reqs[0]), len(first), size(reqs[0]["tools"]))
}
