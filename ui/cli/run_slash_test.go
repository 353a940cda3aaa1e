package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRefuseRunSlash(t *testing.T) {
	c := runSlashCheck{
		known:         []string{"/compact", "/context", "/init", "/commit", "/y"},
		workbenchOnly: []string{"/help", "/loop", "/mcp", "/model", "/schedule", "/exit"},
		modelOnly:     func(name string) bool { return name == "/hidden" },
		exists:        func(path string) bool { return path == "/usr" || path == "/tmp" },
	}
	cases := []struct {
		in, want string // want "": sent as it is
	}{
		{"fix the bug", ""},
		{"/commit", ""},
		{"  /y the release", ""},
		{"/compact keep the tests", ""},
		{"/init", ""},
		{"/context", ""},
		{"/usr/bin is empty?", ""}, // a path: a second slash
		{"/usr is empty?", ""},     // a path that exists, as Claude Code
		{"/tmp", ""},               // the same alone
		{"/mcp__srv__p a b", ""},   // an MCP prompt: the invocation decides
		{"/tmp? is it full", ""},   // a path with a closing mark
		// red team 2: one segment that is no command name and no path made a model call
		{"/1abc is odd", "unknown command /1abc"},
		{"/nosuch.txt", "unknown command /nosuch.txt"},
		{"/loop?", "unknown command /loop?"},
		{"/loop, now", "unknown command /loop,"},
		{"/.loop", "unknown command /.loop"},
		{"/a+b", "unknown command /a+b"},
		{"/ünï", "unknown command /ünï"},
		{"/help", "/help works in the workbench only"},
		{"/loop 5m check the deploy", "/loop works in the workbench only"},
		{"/mcp", "/mcp works in the workbench only"},
		{"/schedule in 5m x", "/schedule works in the workbench only"},
		{"/model", "/model works in the workbench only"},
		{"/exit", "/exit works in the workbench only"},
		{"/nosuch thing", "unknown command /nosuch — `pincer run` knows: /compact, /context, /init, /commit, /y"},
		{"/hidden x", "unknown command /hidden — it is a skill only the model loads (user-invocable: false)"},
		{"/", "unknown command /"},
		{"/front:lint", "unknown command /front:lint"},
	}
	for _, tc := range cases {
		err := refuseRunSlash(tc.in, c)
		var ue usageError
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q refused: %v", tc.in, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		case tc.want != "" && !errors.As(err, &ue):
			t.Errorf("%q: %v is no usage error (exit 2)", tc.in, err)
		}
	}
}

// TestRunMCPPromptNotReady: `pincer run "/mcp__mini__greet Bob"` with mini a
// project server not approved is refused (exit 2) with what would let it
// start, and never reaches the model (here a port nothing answers).
func TestRunMCPPromptNotReady(t *testing.T) {
	t.Setenv("PINCER_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	ws := t.TempDir()
	t.Chdir(ws)
	os.WriteFile(filepath.Join(ws, ".mcp.json"), []byte(`{"mcpServers": {"mini": {"command": "mini-server"}}}`), 0o644)
	var out, errOut strings.Builder
	code := Main([]string{"run", "--model", "local/m", "--base-url", "http://127.0.0.1:9/v1", "/mcp__mini__greet Bob"}, strings.NewReader(""), &out, &errOut)
	if code != 2 || !strings.Contains(errOut.String(), "/mcp__mini__greet: MCP server mini (.mcp.json) is not approved for this project: `pincer mcp approve mini`") ||
		strings.Contains(errOut.String(), "127.0.0.1:9") {
		t.Errorf("exit %d, stderr %q", code, errOut.String())
	}
}
