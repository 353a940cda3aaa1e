package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/config"
	"pincer/core/mcp"
)

// TestMCPApproval: the pure decision over scope, the record and Claude Code's
// user-level settings.
func TestMCPApproval(t *testing.T) {
	rec := map[string]string{"a": "fp-a", "b": "fp-old"}
	none := config.MCPJSONApprovals{}
	cases := []struct {
		name               string
		scope              mcp.Scope
		server, fp         string
		claude             config.MCPJSONApprovals
		approved, disabled bool
	}{
		{"user scope", mcp.ScopeUser, "x", "fp", none, true, false},
		{"flag scope", mcp.ScopeFlag, "x", "fp", none, true, false},
		{"plugin scope", mcp.ScopePlugin, "x", "fp", none, true, false},
		{"project unapproved", mcp.ScopeProject, "x", "fp", none, false, false},
		{"project approved", mcp.ScopeProject, "a", "fp-a", none, true, false},
		{"project changed since", mcp.ScopeProject, "b", "fp-new", none, false, false},
		{"project empty fingerprint", mcp.ScopeProject, "c", "", none, false, false},
		{"claude all", mcp.ScopeProject, "x", "fp", config.MCPJSONApprovals{All: true}, true, false},
		{"claude enabled by name", mcp.ScopeProject, "x", "fp", config.MCPJSONApprovals{Enabled: []string{"x"}}, true, false},
		{"claude enabled other", mcp.ScopeProject, "x", "fp", config.MCPJSONApprovals{Enabled: []string{"y"}}, false, false},
		{"claude disabled beats all", mcp.ScopeProject, "x", "fp", config.MCPJSONApprovals{All: true, Disabled: []string{"x"}}, false, true},
		{"claude disabled beats the record", mcp.ScopeProject, "a", "fp-a", config.MCPJSONApprovals{Disabled: []string{"a"}}, false, true},
	}
	for _, c := range cases {
		ok, dis := mcpApproval(c.scope, c.server, c.fp, rec, c.claude)
		if ok != c.approved || dis != c.disabled {
			t.Errorf("%s: approved %v disabled %v; want %v %v", c.name, ok, dis, c.approved, c.disabled)
		}
	}
}

// mcpProject is a workspace with .mcp.json body and a fresh PINCER_HOME and
// HOME; read returns the servers as Prepare builds them.
func mcpProject(t *testing.T, body string) (ws string, read func(flags ...string) ([]mcp.ServerConfig, configReport)) {
	t.Helper()
	ws = t.TempDir()
	t.Setenv("PINCER_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	if err := os.WriteFile(filepath.Join(ws, ".mcp.json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return ws, func(flags ...string) ([]mcp.ServerConfig, configReport) {
		src := config.Read(config.PathsFrom(os.Getenv), ws)
		for _, f := range flags {
			src.MCPConfigArg(f)
		}
		var report configReport
		report.add(src.Errors())
		return mcpServersFrom(src, &report), report
	}
}

// TestMCPApproveRecord: a project server needs approval; approved, it starts;
// its entry changed, it needs approval again; another project's approval does
// not count.
func TestMCPApproveRecord(t *testing.T) {
	ws, read := mcpProject(t, `{"mcpServers": {"srv": {"command": "srv", "args": ["--safe"]}}}`)
	servers, report := read()
	if len(servers) != 1 || servers[0].Approved || servers[0].Scope != mcp.ScopeProject || len(report.fatal)+len(report.warnings) != 0 {
		t.Fatalf("servers %+v report %+v", servers, report)
	}
	if got := MCPServerCommand(servers[0]); got != "srv --safe" {
		t.Errorf("command %q", got)
	}
	if err := ApproveMCPServer(ws, servers[0]); err != nil {
		t.Fatal(err)
	}
	if servers, _ = read(); !servers[0].Approved {
		t.Fatal("not approved after ApproveMCPServer")
	}
	st, err := os.Stat(config.PathsFrom(os.Getenv).MCPApprovals)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("record: %v %v", st, err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".mcp.json"), []byte(`{"mcpServers": {"srv": {"command": "srv", "args": ["--evil"]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if servers, _ = read(); servers[0].Approved {
		t.Fatal("a changed entry kept its approval")
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, ".mcp.json"), []byte(`{"mcpServers": {"srv": {"command": "srv", "args": ["--safe"]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	src := config.Read(config.PathsFrom(os.Getenv), other)
	var r configReport
	if s := mcpServersFrom(src, &r); s[0].Approved {
		t.Fatal("another project's approval counted here")
	}
	flag := mcp.ServerConfig{Name: "f", Scope: mcp.ScopeFlag, Fingerprint: "x"}
	if err := ApproveMCPServer(ws, flag); err == nil {
		t.Error("approving a flag server did not say it needs none")
	}
}

// TestMCPFailClosedStartsNone: with a configuration that does not parse, the
// workbench's Setup has no MCP server (their tools would come after denyAll).
func TestMCPFailClosedStartsNone(t *testing.T) {
	ws := t.TempDir()
	home := t.TempDir()
	t.Setenv("PINCER_HOME", home)
	t.Setenv("HOME", t.TempDir())
	_ = os.WriteFile(filepath.Join(home, "config.toml"), []byte("[mcp.servers.mine]\ncommand = \"srv\"\n[permissions\n"), 0o600)
	t.Chdir(ws)
	s, err := Prepare(Options{FailClosed: true, ModelOptional: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.ConfigErrors) == 0 || len(s.MCPServers) != 0 {
		t.Fatalf("config errors %v servers %v", s.ConfigErrors, s.MCPServers)
	}
	_ = os.WriteFile(filepath.Join(home, "config.toml"), []byte("[mcp.servers.mine]\ncommand = \"srv\"\n"), 0o600)
	if s, err = Prepare(Options{FailClosed: true, ModelOptional: true, MCPConfigs: []string{`{"mcpServers": {"f": {"type": "http", "url": "http://127.0.0.1:1/mcp"}}}`}}); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range s.MCPServers {
		names = append(names, string(m.Scope)+":"+m.Name)
	}
	if strings.Join(names, " ") != "flag:f user:mine" {
		t.Fatalf("servers %v", names)
	}
	if _, err := Prepare(Options{ModelOptional: true, MCPConfigs: []string{filepath.Join(ws, "missing.json")}}); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Fatalf("a missing --mcp-config: %v", err)
	}
}
