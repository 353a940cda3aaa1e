package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/mcp/mcptest"
)

// mcpHere is a fresh PINCER_HOME and HOME and a project directory as the
// current directory; run runs `pincer ARGS` in process.
func mcpHere(t *testing.T) (ws, home string, run func(args ...string) (int, string, string)) {
	t.Helper()
	home, ws = t.TempDir(), t.TempDir()
	t.Setenv("PINCER_HOME", home)
	t.Setenv("HOME", t.TempDir())
	t.Chdir(ws)
	return ws, home, func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := Main(args, strings.NewReader(""), &out, &errb)
		return code, out.String(), errb.String()
	}
}

// TestMCPCommandUsage: usage errors exit 2 and say what is wrong.
func TestMCPCommandUsage(t *testing.T) {
	_, _, run := mcpHere(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp"}, "Usage: pincer mcp"},
		{[]string{"mcp", "frob"}, "unknown command"},
		{[]string{"mcp", "add", "only-name"}, "needs NAME and a command"},
		{[]string{"mcp", "add", "--scope", "local", "a", "srv"}, "no local scope"},
		{[]string{"mcp", "add", "--scope", "team", "a", "srv"}, "want user or project"},
		{[]string{"mcp", "add", "--transport", "ws", "a", "ws://h"}, "not one of"},
		{[]string{"mcp", "add", "a__b", "srv"}, "separates server and tool"},
		{[]string{"mcp", "add", "-e", "NOEQUALS", "a", "srv"}, "want KEY=VALUE"},
		{[]string{"mcp", "add", "-H", "nocolon", "--transport", "http", "a", "https://h"}, `want "Name: value"`},
		{[]string{"mcp", "add", "--transport", "http", "a", "https://h", "extra"}, "takes one URL"},
		{[]string{"mcp", "add", "-e", "API_TOKEN=abc", "a", "srv"}, "writes no secret"},
		{[]string{"mcp", "add", "--transport", "http", "a", "https://h", "-H", "Authorization: Bearer abc"}, "writes no secret"},
		{[]string{"mcp", "remove"}, "one server name"},
		{[]string{"mcp", "approve"}, "names or --all"},
		{[]string{"mcp", "approve", "--all", "x"}, "names or --all"},
		{[]string{"mcp", "get"}, "one server name"},
		{[]string{"mcp", "list", "x"}, "takes no arguments"},
	} {
		code, out, errs := run(c.args...)
		if code != 2 || !strings.Contains(out+errs, c.want) {
			t.Errorf("%v: exit %d, %q %q; want 2 and %q", c.args, code, out, errs, c.want)
		}
		if strings.Contains(errs, "pincer: pincer ") {
			t.Errorf("%v: the prefix is doubled: %q", c.args, errs)
		}
	}
	if _, err := os.Stat(filepath.Join(os.Getenv("PINCER_HOME"), "config.toml")); err == nil {
		t.Error("a refused add wrote the config")
	}
}

// TestMCPCommandFlow: add (user and project), list with a live check of a
// Go-SDK server, a project server listed as needing approval and not started
// (its command would write a marker), approve, get, remove.
func TestMCPCommandFlow(t *testing.T) {
	ws, _, run := mcpHere(t)
	g := mcptest.NewGoServer(t, false)
	if code, out, errs := run("mcp", "add", "--transport", "http", "greeter", g.URL, "-H", "X-Team: ${TEAM:-core}"); code != 0 || !strings.Contains(out, "Added MCP server greeter (user, http)") {
		t.Fatalf("add: %d %q %q", code, out, errs)
	}
	marker := filepath.Join(t.TempDir(), "PROOF_started")
	if code, out, errs := run("mcp", "add", "--scope", "project", "-e", "A=1", "local", "--", "sh", "-c", "touch "+marker); code != 0 || !strings.Contains(out, "pincer mcp approve local") {
		t.Fatalf("add project: %d %q %q", code, out, errs)
	}
	code, out, errs := run("mcp", "list", "--timeout", "20s")
	if code != 0 || !strings.Contains(out, "greeter") || !strings.Contains(out, "ready: 1 tool") ||
		!strings.Contains(out, "local") || !strings.Contains(out, "needs approval") || !strings.Contains(out, "sh -c 'touch "+marker+"'  (env: A=1)") {
		t.Fatalf("list: %d\n%s\n%s", code, out, errs)
	}
	if got, _ := g.Headers.Load().(interface{ Get(string) string }); got == nil || got.Get("X-Team") != "core" {
		t.Errorf("the header's ${TEAM:-core} was not sent expanded: %v", g.Headers.Load())
	}
	if code, out, _ = run("mcp", "get", "local"); code != 0 || !strings.Contains(out, "needs approval") || !strings.Contains(out, "pincer mcp approve local") {
		t.Fatalf("get local: %d %s", code, out)
	}
	time.Sleep(100 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("an unapproved project server was started")
	}
	if code, out, _ = run("mcp", "get", "greeter"); code != 0 || !strings.Contains(out, "mcp__greeter__greet") || !strings.Contains(out, "instructions: "+mcptest.Instructions) {
		t.Fatalf("get greeter: %d %s", code, out)
	}
	if code, out, _ = run("mcp", "approve", "local", "greeter"); code != 0 || !strings.Contains(out, "Approved local") || !strings.Contains(out, "touch") ||
		!strings.Contains(out, "greeter is your own server (user)") {
		t.Fatalf("approve: %d %s", code, out)
	}
	if code, _, errs = run("mcp", "approve", "nosuch"); code != 1 || !strings.Contains(errs, `no MCP server named "nosuch"`) {
		t.Fatalf("approve nosuch: %d %s", code, errs)
	}
	data, _ := os.ReadFile(filepath.Join(ws, ".mcp.json"))
	if !strings.Contains(string(data), `"local"`) {
		t.Fatalf(".mcp.json: %s", data)
	}
	if code, out, _ = run("mcp", "remove", "local"); code != 0 || !strings.Contains(out, ".mcp.json") {
		t.Fatalf("remove local: %d %s", code, out)
	}
	if code, out, _ = run("mcp", "remove", "greeter"); code != 0 || !strings.Contains(out, "config.toml") {
		t.Fatalf("remove greeter: %d %s", code, out)
	}
	if code, _, errs = run("mcp", "remove", "greeter"); code != 1 || !strings.Contains(errs, "no such MCP server") {
		t.Fatalf("remove again: %d %s", code, errs)
	}
	if code, out, _ = run("mcp", "list"); code != 0 || !strings.Contains(out, "No MCP servers configured") {
		t.Fatalf("list after: %d %s", code, out)
	}
}

// TestMCPBrokenEntriesListed: an entry with an unset ${VAR} (or a bad name) is
// a row of mcp list and mcp get, not only a warning; a crashing server's
// reason quotes its stderr and log; a silent one times out; approve refuses
// a broken entry.
func TestMCPBrokenEntriesListed(t *testing.T) {
	ws, home, run := mcpHere(t)
	t.Setenv("MCP_TOKEN", "")
	os.Unsetenv("MCP_TOKEN")
	if code, out, errs := run("mcp", "add", "--transport", "http", "remote", "https://example.invalid/mcp", "-H", "Authorization: Bearer ${MCP_TOKEN}"); code != 0 {
		t.Fatalf("add: %d %q %q", code, out, errs)
	}
	run("mcp", "add", "boom", "--", "sh", "-c", "echo boom >&2; exit 3")
	run("mcp", "add", "slow", "--", "sleep", "30")
	os.WriteFile(filepath.Join(ws, ".mcp.json"), []byte("{\"mcpServers\": {\n  \"a__b\": {\"command\": \"x\"}\n}}\n"), 0o644)
	code, out, errs := run("mcp", "list", "--timeout", "1s")
	cfgPath := filepath.Join(home, "config.toml")
	for _, want := range []string{
		"remote", "not started: headers.Authorization: ${MCP_TOKEN}: the environment variable MCP_TOKEN is not set", "(" + cfgPath + ":",
		"a__b", filepath.Join(ws, ".mcp.json") + ":2)",
		"failed: server exited (exit status 3)", "stderr: boom (log: " + filepath.Join(home, "data", "mcp-logs", "boom.log") + ")",
		"failed: timed out after 1s (--timeout / MCP_TIMEOUT)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("list lacks %q: %d\n%s\n%s", want, code, out, errs)
		}
	}
	if strings.Contains(out, "connecting") {
		t.Errorf("list says connecting:\n%s", out)
	}
	if code, out, _ := run("mcp", "get", "remote"); code != 0 || !strings.Contains(out, "status:     not started: headers.Authorization") {
		t.Errorf("get remote: %d %s", code, out)
	}
	if code, _, errs := run("mcp", "approve", "a__b"); code != 1 || !strings.Contains(errs, "cannot be approved") {
		t.Errorf("approve a__b: %d %s", code, errs)
	}
}

// TestMCPClaudeStateAndAddJSON: the servers of ~/.claude.json (user and this
// project's local scope) are listed with their scope; add-json writes an
// entry from its JSON.
func TestMCPClaudeStateAndAddJSON(t *testing.T) {
	ws, home, run := mcpHere(t)
	state := `{"mcpServers": {"cuser": {"command": "sh", "args": ["-c", "exit 0"]}},
 "projects": {"` + ws + `": {"mcpServers": {"clocal": {"type": "http", "url": "http://127.0.0.1:9/mcp"}}}}}`
	os.WriteFile(filepath.Join(os.Getenv("HOME"), ".claude.json"), []byte(state), 0o600)
	if code, out, errs := run("mcp", "add-json", "fromjson", `{"command": "sh", "args": ["-c", "exit 0"], "env": {"A": "1"}}`); code != 0 || !strings.Contains(out, "Added MCP server fromjson (user, stdio)") {
		t.Fatalf("add-json: %d %q %q", code, out, errs)
	}
	if data, _ := os.ReadFile(filepath.Join(home, "config.toml")); !strings.Contains(string(data), "[mcp.servers.fromjson]") {
		t.Errorf("config.toml: %s", data)
	}
	if code, _, errs := run("mcp", "add-json", "x", `{"command": "a", "cwd": "/"}`); code != 2 || !strings.Contains(errs, "unknown field") {
		t.Errorf("add-json bad: %d %s", code, errs)
	}
	code, out, errs := run("mcp", "list", "--timeout", "1s")
	for _, want := range []string{"clocal  local", "cuser     user", "fromjson  user"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("list lacks %q: %d\n%s\n%s", want, code, out, errs)
		}
	}
	if code, _, errs := run("mcp", "remove", "clocal"); code != 1 || !strings.Contains(errs, "claude mcp remove clocal") {
		t.Errorf("remove clocal: %d %s", code, errs)
	}
	if code, out, _ := run("mcp", "get", "clocal"); code != 0 || !strings.Contains(out, "scope:      local ("+filepath.Join(os.Getenv("HOME"), ".claude.json")+":2)") {
		t.Errorf("get clocal: %d %s", code, out)
	}
}

// TestMCPListBrokenFile: with the only MCP file not parsing, mcp list says
// the configuration has problems (the warning names FILE:LINE), not that
// none is configured (new user r21 finding 13).
func TestMCPListBrokenFile(t *testing.T) {
	ws, _, run := mcpHere(t)
	if err := os.WriteFile(filepath.Join(ws, ".mcp.json"), []byte("{\"mcpServers\": {\"a\": {\"command\": \"x\"},}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run("mcp", "list")
	if code != 0 || strings.Contains(out, "No MCP servers configured") || !strings.Contains(out, "could be read") || !strings.Contains(errs, ".mcp.json:1") {
		t.Errorf("mcp list of a broken .mcp.json: %d %q %q", code, out, errs)
	}
}
