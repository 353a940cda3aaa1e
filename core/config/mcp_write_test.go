package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPSpecCheck: what `pincer mcp add` refuses before writing.
func TestMCPSpecCheck(t *testing.T) {
	cases := []struct {
		spec MCPServerSpec
		err  string
	}{
		{MCPServerSpec{Name: "a", Type: "stdio", Command: "srv"}, ""},
		{MCPServerSpec{Name: "a", Type: "http", URL: "https://h/mcp"}, ""},
		{MCPServerSpec{Name: "a", Type: "sse", URL: "${BASE}/sse"}, ""},
		{MCPServerSpec{Name: "a", Type: "stdio", Command: "srv", Env: map[string]string{"GITHUB_TOKEN": "${GITHUB_TOKEN}"}}, ""},
		{MCPServerSpec{Name: "a", Type: "http", URL: "https://h", Headers: map[string]string{"Authorization": "Bearer ${T}"}}, ""},
		{MCPServerSpec{Name: "a__b", Type: "stdio", Command: "srv"}, "separates server and tool"},
		{MCPServerSpec{Name: "a", Type: "ws", URL: "ws://h"}, "not one of"},
		{MCPServerSpec{Name: "a", Type: "stdio"}, "needs a command"},
		{MCPServerSpec{Name: "a", Type: "stdio", Command: "srv", Headers: map[string]string{"X": "1"}}, "not -H"},
		{MCPServerSpec{Name: "a", Type: "http", URL: "ftp://h"}, "http(s) URL"},
		{MCPServerSpec{Name: "a", Type: "http", URL: "https://h", Env: map[string]string{"A": "1"}}, "not a command"},
		{MCPServerSpec{Name: "a", Type: "stdio", Command: "srv", Env: map[string]string{"GITHUB_TOKEN": "ghp_123"}}, "writes no secret"},
		{MCPServerSpec{Name: "a", Type: "stdio", Command: "srv", Env: map[string]string{"DB_PASSWORD": "hunter2"}}, "writes no secret"},
		{MCPServerSpec{Name: "a", Type: "http", URL: "https://h", Headers: map[string]string{"authorization": "Bearer abc"}}, "writes no secret"},
		{MCPServerSpec{Name: "a", Type: "http", URL: "https://h", Headers: map[string]string{"X-Api-Key": "abc"}}, "writes no secret"},
	}
	for _, c := range cases {
		err := c.spec.Check()
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%+v: %v; want %q", c.spec, err, c.err)
		}
	}
}

// TestMCPAddRemoveUser: add writes [mcp.servers.NAME] that the reader reads
// back, keeps the file's other tables; remove takes it out; removing a name
// the file lacks writes nothing.
func TestMCPAddRemoveUser(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	_ = os.WriteFile(path, []byte("default_model = \"a/b\"\n[permissions]\ndeny = [\"Bash(rm:*)\"]\n"), 0o600)
	if err := AddMCPServer(path, MCPServerSpec{Name: "gh", Type: "stdio", Command: "gh-mcp", Args: []string{"stdio", "--x"}, Env: map[string]string{"K": "v"}}); err != nil {
		t.Fatal(err)
	}
	if err := AddMCPServer(path, MCPServerSpec{Name: "web", Type: "http", URL: "https://h/mcp", Headers: map[string]string{"Authorization": "Bearer ${T}"}}); err != nil {
		t.Fatal(err)
	}
	src := ReadSources([]Source{{Kind: UserConfig, Path: path, Format: TOML}}, "")
	servers, errs := src.MCPServers(func(string) (string, bool) { return "tok", true })
	if len(errs) > 0 || len(servers) != 2 || servers[0].Command != "gh-mcp" || strings.Join(servers[0].Args, " ") != "stdio --x" || servers[0].Env["K"] != "v" ||
		servers[1].URL != "https://h/mcp" || servers[1].Headers["Authorization"] != "Bearer tok" {
		t.Fatalf("read back %+v %v", servers, errs)
	}
	perms, _ := src.Permissions()
	if len(perms) != 1 || len(perms[0].Deny) != 1 {
		t.Fatalf("the other tables were not kept: %+v", perms)
	}
	if found, err := RemoveMCPServer(path, "gh"); !found || err != nil {
		t.Fatal(found, err)
	}
	before, _ := os.ReadFile(path)
	if found, err := RemoveMCPServer(path, "gh"); found || err != nil {
		t.Fatal(found, err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) || strings.Contains(string(after), "gh-mcp") {
		t.Fatalf("after remove:\n%s", after)
	}
	missing := filepath.Join(dir, "none.toml")
	if found, err := RemoveMCPServer(missing, "x"); found || err != nil {
		t.Fatal(found, err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Fatal("removing from a missing file created it")
	}
}

// TestMCPAddRemoveProject: add keeps the other entries and keys of
// .mcp.json (0644); a file that does not parse is not rewritten.
func TestMCPAddRemoveProject(t *testing.T) {
	ws := t.TempDir()
	path := MCPJSONPath(ws)
	_ = os.WriteFile(path, []byte(`{"mcpServers": {"keep": {"command": "k", "args": ["<&>"]}}, "other": 1}`), 0o644)
	if err := AddMCPJSONServer(path, MCPServerSpec{Name: "new", Type: "sse", URL: "http://h/sse"}); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", st.Mode())
	}
	data, _ := os.ReadFile(path)
	src := ReadSources([]Source{{Kind: ProjectMCP, Path: path, Format: JSON, Project: true}}, ws)
	servers, errs := src.MCPServers(nil)
	if len(servers) != 2 || servers[0].Name != "keep" || servers[0].Args[0] != "<&>" || servers[1].Type != "sse" || !strings.Contains(string(data), `"other": 1`) {
		t.Fatalf("%s\n%+v %v", data, servers, errs)
	}
	if found, err := RemoveMCPJSONServer(path, "keep"); !found || err != nil {
		t.Fatal(found, err)
	}
	if data, _ = os.ReadFile(path); strings.Contains(string(data), "keep") || !strings.Contains(string(data), "new") {
		t.Fatalf("after remove:\n%s", data)
	}
	broken := []byte("{\"mcpServers\": {\"a\": {}},\n \"mcpServers\": {}}")
	_ = os.WriteFile(path, broken, 0o644)
	if err := AddMCPJSONServer(path, MCPServerSpec{Name: "x", Type: "stdio", Command: "x"}); err == nil || !strings.Contains(err.Error(), ".mcp.json:2") {
		t.Fatalf("a file with a duplicate key: %v", err)
	}
	if data, _ = os.ReadFile(path); string(data) != string(broken) {
		t.Fatal("a file that does not parse was rewritten")
	}
}

// TestMCPSpecFromJSON: add-json's entry, checked as add's.
func TestMCPSpecFromJSON(t *testing.T) {
	s, err := MCPSpecFromJSON("fs", `{"command": "npx", "args": ["-y", "srv"], "env": {"A": "1"}}`)
	if err != nil || s.Type != "stdio" || s.Command != "npx" || len(s.Args) != 2 || s.Env["A"] != "1" {
		t.Errorf("stdio: %+v %v", s, err)
	}
	s, err = MCPSpecFromJSON("r", `{"type": "http", "url": "https://h/mcp", "headers": {"Authorization": "Bearer ${T}"}}`)
	if err != nil || s.Type != "http" || s.Headers["Authorization"] != "Bearer ${T}" {
		t.Errorf("http: %+v %v", s, err)
	}
	for _, c := range []struct{ name, js, want string }{
		{"x", `{"command": "a", "cwd": "/"}`, "unknown field"},
		{"x", `{"command": 3}`, "cannot unmarshal"},
		{"x", `{"command": "a"} {}`, "data after the object"},
		{"a__b", `{"command": "a"}`, "separates server and tool"},
		{"x", `{"type": "http", "url": "https://h", "headers": {"Authorization": "Bearer abc"}}`, "writes no secret"},
	} {
		if _, err := MCPSpecFromJSON(c.name, c.js); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.js, err, c.want)
		}
	}
}
