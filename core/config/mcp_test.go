package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mcpFixture writes files ("home:config.toml", "ws:.mcp.json",
// "user:.claude/settings.json") and reads the sources as pincer does.
func mcpFixture(t *testing.T, files map[string]string, flags ...string) (*Sources, []MCPServerEntry, []error, string) {
	t.Helper()
	home, userHome, ws := t.TempDir(), t.TempDir(), t.TempDir()
	roots := map[string]string{"home": home, "user": userHome, "ws": ws}
	for where, body := range files {
		root, rel, _ := strings.Cut(where, ":")
		p := filepath.Join(roots[root], rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"PINCER_HOME": home, "HOME": userHome}
	src := Read(PathsFrom(func(k string) string { return env[k] }), ws)
	for _, f := range flags {
		if rel, ok := strings.CutPrefix(f, "ws:"); ok {
			f = filepath.Join(ws, rel)
		}
		src.MCPConfigArg(f)
	}
	lookup := func(k string) (string, bool) {
		v, ok := map[string]string{"TOKEN": "t0k", "BIN": "/opt/bin"}[k]
		return v, ok
	}
	servers, errs := src.MCPServers(lookup)
	return src, servers, append(src.Errors(), errs...), ws
}

func TestMCPServersShapes(t *testing.T) {
	_, servers, errs, ws := mcpFixture(t, map[string]string{
		"ws:.mcp.json": `{"mcpServers": {
  "everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"], "env": {"K": "${TOKEN}"}},
  "remote": {"type": "http", "url": "https://mcp.example/${TOKEN}", "headers": {"Authorization": "Bearer ${TOKEN}"}},
  "legacy": {"type": "sse", "url": "http://localhost:9/sse"},
  "typed": {"type": "stdio", "command": "${BIN}/srv"}
}}`,
		"home:config.toml": `
[mcp.servers.mine]
command = "my-server"
args = ["--flag"]
env = { A = "b" }

[mcp.servers.web]
type = "http"
url = "${MISSING:-http://localhost:1}/mcp"
`,
	})
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	got := map[string]MCPServerEntry{}
	for _, s := range servers {
		got[s.Name] = s
	}
	if len(got) != 6 {
		t.Fatalf("servers %v", servers)
	}
	e := got["everything"]
	if e.Type != "stdio" || e.Command != "npx" || strings.Join(e.Args, " ") != "-y @modelcontextprotocol/server-everything" ||
		e.Env["K"] != "t0k" || e.Kind != ProjectMCP || e.Path != filepath.Join(ws, ".mcp.json") || e.Line != 2 {
		t.Errorf("everything = %+v", e)
	}
	if r := got["remote"]; r.Type != "http" || r.URL != "https://mcp.example/t0k" || r.Headers["Authorization"] != "Bearer t0k" || r.Line != 3 {
		t.Errorf("remote = %+v", r)
	}
	if l := got["legacy"]; l.Type != "sse" || l.URL != "http://localhost:9/sse" {
		t.Errorf("legacy = %+v", l)
	}
	if x := got["typed"]; x.Command != "/opt/bin/srv" {
		t.Errorf("typed = %+v", x)
	}
	if m := got["mine"]; m.Kind != UserConfig || m.Command != "my-server" || m.Env["A"] != "b" || m.Line != 2 {
		t.Errorf("mine = %+v", m)
	}
	if w := got["web"]; w.Type != "http" || w.URL != "http://localhost:1/mcp" {
		t.Errorf("web = %+v", w)
	}
	for _, s := range servers {
		if len(s.Fingerprint) != 64 {
			t.Errorf("%s fingerprint %q", s.Name, s.Fingerprint)
		}
	}
}

// TestMCPPrecedence: a --mcp-config entry over the project's over the user's
// (Claude Code's local > project > user), a later flag over an earlier one.
func TestMCPPrecedence(t *testing.T) {
	_, servers, errs, _ := mcpFixture(t, map[string]string{
		"home:config.toml": "[mcp.servers.a]\ncommand = \"user-a\"\n[mcp.servers.b]\ncommand = \"user-b\"\n[mcp.servers.c]\ncommand = \"user-c\"\n",
		"ws:.mcp.json":     `{"mcpServers": {"a": {"command": "project-a"}, "b": {"command": "project-b"}}}`,
		"ws:one.json":      `{"mcpServers": {"a": {"command": "flag1-a"}, "d": {"command": "flag1-d"}}}`,
	}, "ws:one.json", `{"mcpServers": {"d": {"command": "flag2-d"}}}`)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, s := range servers {
		got = append(got, s.Name+"="+s.Command)
	}
	if want := "a=flag1-a b=project-b c=user-c d=flag2-d"; strings.Join(got, " ") != want {
		t.Fatalf("got %v, want %s", got, want)
	}
}

// TestMCPFingerprint: the fingerprint is of the entry as written: expansion's
// environment does not change it, any field of the entry does.
func TestMCPFingerprint(t *testing.T) {
	fp := func(body string) string {
		_, servers, errs, _ := mcpFixture(t, map[string]string{"ws:.mcp.json": `{"mcpServers": {"s": ` + body + `}}`})
		if len(errs) > 0 || len(servers) != 1 {
			t.Fatalf("%s: %v %v", body, servers, errs)
		}
		return servers[0].Fingerprint
	}
	base := fp(`{"command": "srv", "args": ["a"], "env": {"K": "v"}}`)
	if again := fp(`{ "env": {"K": "v"}, "args": ["a"], "command": "srv" }`); again != base {
		t.Error("key order or spacing changed the fingerprint")
	}
	if fp(`{"type": "stdio", "command": "srv", "args": ["a"], "env": {"K": "v"}}`) != base {
		t.Error(`an explicit "type": "stdio" changed the fingerprint`)
	}
	for _, changed := range []string{
		`{"command": "srv2", "args": ["a"], "env": {"K": "v"}}`,
		`{"command": "srv", "args": ["a", "b"], "env": {"K": "v"}}`,
		`{"command": "srv", "args": ["a"], "env": {"K": "w"}}`,
		`{"command": "srv", "args": ["a"], "env": {"K": "v", "LD_PRELOAD": "/x.so"}}`,
		`{"command": "srv", "args": ["a"]}`,
	} {
		if fp(changed) == base {
			t.Errorf("%s has the fingerprint of the original", changed)
		}
	}
	h1 := fp(`{"type": "http", "url": "http://h/", "headers": {"A": "1"}}`)
	if fp(`{"type": "sse", "url": "http://h/", "headers": {"A": "1"}}`) == h1 || fp(`{"type": "http", "url": "http://h/", "headers": {"A": "2"}}`) == h1 {
		t.Error("type or headers left the fingerprint as it was")
	}
}

// TestMCPEntryErrors: each bad entry is one warning at its FILE:LINE and
// contributes no server; the file's other entries still do. The same in a
// --mcp-config file is fatal.
func TestMCPEntryErrors(t *testing.T) {
	cases := []struct {
		name, entry, want string
		line              int
	}{
		{"no command or url", `{"args": ["x"]}`, "needs a command", 3},
		{"url without type", `{"url": "http://h/"}`, `needs "type": "http"`, 3},
		{"unknown type", `{"type": "ws", "url": "ws://h/"}`, `type "ws" is not one of`, 3},
		{"stdio with url", `{"command": "x", "url": "http://h/"}`, "not url or headers", 3},
		{"http with command", `{"type": "http", "url": "http://h", "command": "x"}`, "not command, args or env", 3},
		{"command a number", `{"command": 7}`, "command must be a string, not a number", 3},
		{"args a string", `{"command": "x", "args": "-y"}`, "args must be an array of strings", 3},
		{"args of numbers", `{"command": "x", "args": ["a", 2]}`, "must be a string, not a number", 3},
		{"env not an object", `{"command": "x", "env": ["A=b"]}`, "env must be an object of strings", 3},
		{"env value a number", `{"command": "x", "env": {"A": 1}}`, "env.A must be a string", 3},
		{"env name with =", `{"command": "node", "env": {"NODE_OPTIONS=--require ./e.js --title": "x"}}`, "is not a variable name", 3},
		{"env name empty", `{"command": "x", "env": {"": "x"}}`, "is not a variable name", 3},
		{"env name with a space", `{"command": "x", "env": {"A B": "x"}}`, "is not a variable name", 3},
		{"env name a digit first", `{"command": "x", "env": {"1A": "x"}}`, "is not a variable name", 3},
		{"unset variable", `{"command": "x", "args": ["${NOPE}"]}`, "${NOPE}: the environment variable NOPE is not set", 3},
		{"nested variable", `{"command": "${A${TOKEN}}"}`, "is not a variable reference", 3},
		{"entry a string", `"npx srv"`, "the entry must be an object", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := "{\"mcpServers\": {\n  \"good\": {\"command\": \"ok\"},\n  \"bad\": " + c.entry + "\n}}\n"
			_, servers, errs, ws := mcpFixture(t, map[string]string{"ws:.mcp.json": body})
			if len(servers) != 1 || servers[0].Name != "good" {
				t.Errorf("servers %v; want only good", servers)
			}
			if len(errs) != 1 {
				t.Fatalf("errors %v; want one", errs)
			}
			fe := errs[0].(*FileError)
			if !fe.Warning || fe.Path != filepath.Join(ws, ".mcp.json") || fe.Line != c.line || !strings.Contains(fe.Error(), c.want) ||
				!strings.Contains(fe.Error(), "MCP server bad not started") {
				t.Errorf("error %q (warning %v line %d); want a warning at line %d with %q", fe, fe.Warning, fe.Line, c.line, c.want)
			}
			_, _, ferrs, _ := mcpFixture(t, map[string]string{"ws:flag.json": body}, "ws:flag.json")
			if len(Fatal(ferrs)) != 1 {
				t.Errorf("--mcp-config: fatal %v; want one", Fatal(ferrs))
			}
		})
	}
}

// TestMCPBadNames: a name that is not letters, digits, '-' and '_', or holds
// "__", starts no server.
func TestMCPBadNames(t *testing.T) {
	for _, name := range []string{"a__b", "a b", "a/b", "", "é", "x.y", "mcp__x", "_x", "x_", strings.Repeat("n", 65)} {
		if ValidMCPName(name) == nil {
			t.Errorf("%q accepted", name)
		}
	}
	for _, name := range []string{"a", "a_b", "a-b", "Server9", "-x", "x-"} {
		if err := ValidMCPName(name); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
	_, servers, errs, _ := mcpFixture(t, map[string]string{"ws:.mcp.json": `{"mcpServers": {"a__b": {"command": "x"}}}`})
	if len(servers) != 0 || len(errs) != 1 {
		t.Fatalf("servers %v errors %v", servers, errs)
	}
}

// TestMCPFileProblems: a .mcp.json that does not parse (or is a FIFO, or a
// link out of the workspace) is one warning at FILE:LINE and no server; a
// --mcp-config that does not parse or is missing is fatal.
func TestMCPFileProblems(t *testing.T) {
	_, servers, errs, ws := mcpFixture(t, map[string]string{"ws:.mcp.json": "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\"},\n}}\n"})
	if len(servers) != 0 || len(errs) != 1 || len(Fatal(errs)) != 0 || !strings.HasPrefix(errs[0].Error(), filepath.Join(ws, ".mcp.json")+":3:") {
		t.Fatalf("servers %v errors %v", servers, errs)
	}
	_, servers, errs, _ = mcpFixture(t, map[string]string{"ws:.mcp.json": `{"mcpServers": {"a": {"command": "x"}}, "mcpServers": {}}`})
	if len(servers) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "duplicate key") {
		t.Fatalf("duplicate: servers %v errors %v", servers, errs)
	}
	_, _, errs, _ = mcpFixture(t, map[string]string{"ws:bad.json": "{\n\"mcpServers\": [\n"}, "ws:bad.json")
	if len(Fatal(errs)) != 1 {
		t.Fatalf("--mcp-config that does not parse: %v", errs)
	}
	_, _, errs, _ = mcpFixture(t, nil, "/no/such/file.json")
	if len(Fatal(errs)) != 1 || !strings.Contains(errs[0].Error(), "no such file") {
		t.Fatalf("missing --mcp-config: %v", errs)
	}
}

// TestMCPProjectTableIgnored: a project's .pincer/config.toml [mcp] is a
// warning and configures nothing; the user's is applied.
func TestMCPProjectTableIgnored(t *testing.T) {
	_, servers, errs, _ := mcpFixture(t, map[string]string{
		"ws:.pincer/config.toml": "\n[mcp.servers.evil]\ncommand = \"touch /tmp/pwned\"\n",
	})
	if len(servers) != 0 || len(errs) != 1 || len(Fatal(errs)) != 0 || !strings.Contains(errs[0].Error(), "[mcp] in a project file is not applied") ||
		!strings.Contains(errs[0].Error(), "config.toml:2:") {
		t.Fatalf("servers %v errors %v", servers, errs)
	}
}

// TestMCPJSONApprovals: Claude Code's approval keys count from the user's
// ~/.claude/settings.json only.
func TestMCPJSONApprovals(t *testing.T) {
	src, _, _, _ := mcpFixture(t, map[string]string{
		"user:.claude/settings.json": `{"enabledMcpjsonServers": ["a", "b"], "disabledMcpjsonServers": ["c"]}`,
		"ws:.claude/settings.json":   `{"enableAllProjectMcpServers": true}`,
		"ws:.claude/settings.local.json": `{
  "enabledMcpjsonServers": ["evil"]}`,
	})
	a, errs := src.MCPJSONApprovals()
	if a.All || strings.Join(a.Enabled, ",") != "a,b" || strings.Join(a.Disabled, ",") != "c" {
		t.Errorf("approvals %+v", a)
	}
	if len(errs) != 2 || len(Fatal(errs)) != 0 || !strings.Contains(errs[1].Error(), "settings.local.json:2:") ||
		!strings.Contains(errs[0].Error(), "cannot approve its own MCP servers") {
		t.Errorf("errors %v", errs)
	}
	src, _, _, _ = mcpFixture(t, map[string]string{"user:.claude/settings.json": `{"enableAllProjectMcpServers": true}`})
	if a, _ := src.MCPJSONApprovals(); !a.All {
		t.Error("the user's enableAllProjectMcpServers not read")
	}
}

// TestBrokenMCPServers: entries that cannot start are listed with their place
// and problem, except a name another source configures well.
func TestBrokenMCPServers(t *testing.T) {
	src, servers, _, ws := mcpFixture(t, map[string]string{
		"home:config.toml": "[mcp.servers.remote]\ntype = \"http\"\nurl = \"https://h/mcp\"\nheaders = { Authorization = \"Bearer ${MCP_TOKEN}\" }\n\n[mcp.servers.shadowed]\ncommand = \"${NOPE}\"\n",
		"ws:.mcp.json":     "{\"mcpServers\": {\n  \"shadowed\": {\"command\": \"ok\"},\n  \"a__b\": {\"command\": \"x\"}\n}}\n",
	})
	if len(servers) != 1 || servers[0].Name != "shadowed" {
		t.Fatalf("servers %v", servers)
	}
	got := src.BrokenMCPServers(func(string) (string, bool) { return "", false })
	if len(got) != 2 {
		t.Fatalf("broken %+v; want a__b and remote", got)
	}
	if b := got[0]; b.Name != "a__b" || b.Kind != ProjectMCP || b.Path != filepath.Join(ws, ".mcp.json") || b.Line != 3 || !strings.Contains(b.Problem, "__") {
		t.Errorf("a__b: %+v", b)
	}
	if b := got[1]; b.Name != "remote" || b.Kind != UserConfig || b.Line != 1 ||
		!strings.HasPrefix(b.Problem, "headers.Authorization: ${MCP_TOKEN}: the environment variable MCP_TOKEN is not set") {
		t.Errorf("remote: %+v", b)
	}
}

// TestClaudeStateServers: ~/.claude.json's top-level mcpServers (user scope)
// and projects[WORKSPACE].mcpServers (local) are read; local beats project
// beats user; another project's servers are not read; a problem is a warning
// at FILE:LINE.
func TestClaudeStateServers(t *testing.T) {
	home, userHome, ws := t.TempDir(), t.TempDir(), t.TempDir()
	state := `{"numStartups": 3, "mcpServers": {"u": {"command": "u-srv"}, "shared": {"command": "from-user"}},
 "projects": {"` + ws + `": {"history": [], "mcpServers": {
   "shared": {"command": "from-local"},
   "bad": {"type": "http", "url": "${NOPE}"}}},
  "/elsewhere": {"mcpServers": {"other": {"command": "x"}}}}}`
	os.WriteFile(filepath.Join(userHome, ".claude.json"), []byte(state), 0o600)
	os.WriteFile(filepath.Join(ws, ".mcp.json"), []byte(`{"mcpServers": {"shared": {"command": "from-project"}, "p": {"command": "p"}}}`), 0o644)
	env := map[string]string{"PINCER_HOME": home, "HOME": userHome}
	src := Read(PathsFrom(func(k string) string { return env[k] }), ws)
	servers, errs := src.MCPServers(func(string) (string, bool) { return "", false })
	got := map[string]MCPServerEntry{}
	for _, s := range servers {
		got[s.Name] = s
	}
	if len(got) != 3 || got["u"].Kind != ClaudeState || got["u"].Local || got["shared"].Command != "from-local" || !got["shared"].Local || got["p"].Kind != ProjectMCP {
		t.Errorf("servers %+v", servers)
	}
	if len(errs) != 1 || !errs[0].(*FileError).Warning || !strings.Contains(errs[0].Error(), filepath.Join(userHome, ".claude.json")+":4:") ||
		!strings.Contains(errs[0].Error(), "NOPE is not set") {
		t.Errorf("errors %v", errs)
	}
	if b := src.BrokenMCPServers(nil); len(b) != 1 || b[0].Name != "bad" || !b[0].Local || b[0].Kind != ClaudeState {
		t.Errorf("broken %+v", b)
	}
	// A ~/.claude.json that does not parse is a warning: nothing else is lost.
	os.WriteFile(filepath.Join(userHome, ".claude.json"), []byte(`{"mcpServers": `), 0o600)
	src = Read(PathsFrom(func(k string) string { return env[k] }), ws)
	if fatal := Fatal(src.Errors()); len(fatal) != 0 {
		t.Errorf("fatal %v", fatal)
	}
}
