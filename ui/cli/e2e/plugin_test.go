package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"net/http"

	"pincer/core/mcp/mcptest"
	"pincer/core/provider/openai/openaitest"
)

// writePluginDir writes a plugin contributing one of each extension point: a
// skill, a command, an agent, hooks (UserPromptSubmit writing a marker through
// a script under ${CLAUDE_PLUGIN_ROOT}; a PreToolUse guard refusing commands
// that name "forbidden"), an MCP server (a Go-SDK server over HTTP at mcpURL)
// and an LSP server.
func writePluginDir(t *testing.T, dir, marker, mcpURL string) {
	t.Helper()
	files := map[string]string{
		".claude-plugin/plugin.json": `{"name": "demo", "version": "1.2.3", "description": "one of each",
  "lspServers": {"gopls": {"command": "gopls", "args": ["serve"], "extensionToLanguage": {".go": "go"}}}}`,
		"skills/tidy/SKILL.md": "---\nname: tidy\ndescription: Tidy the code\n---\nTidy everything.\n",
		"commands/greet.md":    "---\ndescription: Greet someone\n---\nGreet $ARGUMENTS warmly.\n",
		"agents/reviewer.md":   "---\nname: reviewer\ndescription: Reviews changes\n---\nYou review.\n",
		"scripts/mark.sh":      "#!/bin/sh\necho fired >> '" + marker + "'\n",
		"hooks/hooks.json": `{"hooks": {
  "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "sh \"${CLAUDE_PLUGIN_ROOT}/scripts/mark.sh\""}]}],
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "if grep -q forbidden; then echo 'the demo guard refuses' >&2; exit 2; fi"}]}]}}`,
		".mcp.json": `{"mcpServers": {"go": {"type": "http", "url": "` + mcpURL + `", "headers": {"X-Root": "${CLAUDE_PLUGIN_ROOT}"}}}}`,
	}
	for name, body := range files {
		mustWrite(t, filepath.Join(dir, name), body, 0o755)
	}
}

func fired(marker string) int {
	b, _ := os.ReadFile(marker)
	return strings.Count(string(b), "fired")
}

// TestPluginLifecycle: a plugin directory is installed, listed with each of
// its contributions, used (its hooks fire: the prompt hook writes its marker,
// the guard blocks a command and the audit names the plugin), disabled
// (nothing of it applies) and removed.
func TestPluginLifecycle(t *testing.T) {
	e := newEnv(t)
	marker := filepath.Join(t.TempDir(), "MARK")
	src := filepath.Join(t.TempDir(), "demo-src")
	g := mcptest.NewGoServer(t, false)
	writePluginDir(t, src, marker, g.URL)

	out, stderr, code := e.run("plugin", "install", src)
	if code != 0 {
		t.Fatalf("install: %d %s", code, stderr)
	}
	root := filepath.Join(e.home, "data", "plugins", "demo")
	for _, want := range []string{
		"installed plugin demo 1.2.3, enabled (user)",
		"skills: /demo:tidy", "commands: /demo:greet", "agents: demo:reviewer",
		"UserPromptSubmit: sh \"" + root + "/scripts/mark.sh\"", "PreToolUse [Bash]:",
		"mcp servers: plugin_demo_go (http: " + g.URL + ")",
		"lsp servers: gopls (gopls) — recorded, not yet used",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("install output lacks %q:\n%s", want, out)
		}
	}
	out, _, code = e.run("plugin", "list", "--json")
	var list []struct {
		Name, Scope                                             string
		Enabled                                                 bool
		Skills, Commands, Agents, Hooks, MCPServers, LSPServers []string
		Errors                                                  []string
	}
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 {
		t.Fatalf("list --json: %d %s", code, out)
	}
	if l := list[0]; !l.Enabled || l.Scope != "user" || len(l.Skills) != 1 || len(l.Commands) != 1 || len(l.Agents) != 1 ||
		len(l.Hooks) != 2 || len(l.MCPServers) != 1 || len(l.LSPServers) != 1 || len(l.Errors) != 0 {
		t.Errorf("list: %+v", l)
	}

	// Used: the command expands, the hooks fire, the MCP server's tool is
	// offered and called.
	e.fake.Push(openaitest.Reply{ToolCalls: []openaitest.Call{
		{ID: "b1", Name: "Bash", Args: `{"command":"touch forbidden.txt"}`},
		{ID: "g1", Name: "mcp__plugin_demo_go__greet", Args: `{"name":"ada"}`},
	}}, openaitest.Reply{Text: "done"})
	_, stderr, code = e.run(e.runArgs("--allowed-tools", "Bash(touch forbidden.txt) mcp__plugin_demo_go", "/demo:greet Bob")...)
	if code != 0 {
		t.Fatalf("run: %d %s", code, stderr)
	}
	reqs := e.fake.Requests()
	first, _ := json.Marshal(reqs[len(reqs)-2]["messages"])
	if !strings.Contains(string(first), "Greet Bob warmly.") {
		t.Errorf("the plugin's command did not expand: %s", first)
	}
	if got := toolMessages(reqs[len(reqs)-1])["g1"]; !strings.Contains(got, "hello, ada") || g.Calls.Load() != 1 {
		t.Errorf("the plugin's MCP tool: %q (%d calls)", got, g.Calls.Load())
	}
	if h, _ := g.Headers.Load().(http.Header); h.Get("X-Root") != root {
		t.Errorf("${CLAUDE_PLUGIN_ROOT} in the server's headers: %q", h.Get("X-Root"))
	}
	if fired(marker) != 1 {
		t.Errorf("the plugin's UserPromptSubmit hook fired %d times, want 1", fired(marker))
	}
	if _, err := os.Stat(filepath.Join(e.repo, "forbidden.txt")); err == nil {
		t.Error("the plugin's guard did not block the command")
	}
	out, _, _ = e.run("audit", "--json")
	var entries []struct{ Tool, Decision, By, Reason, Origin string }
	if json.Unmarshal([]byte(out), &entries) != nil || len(entries) != 2 {
		t.Fatalf("audit: %s", out)
	}
	for _, en := range entries {
		switch en.Tool {
		case "Bash":
			if en.Decision != "deny" || !strings.Contains(en.Reason, "[plugin:demo] the demo guard refuses") {
				t.Errorf("audit does not name the plugin's hook: %+v", en)
			}
		case "mcp__plugin_demo_go__greet":
			if en.Decision != "allow" || en.Origin != "plugin:demo" {
				t.Errorf("audit of the plugin's MCP tool: %+v", en)
			}
		default:
			t.Errorf("audit: %+v", en)
		}
	}

	// Disabled for this project: nothing of it applies here.
	if _, stderr, code := e.run("plugin", "disable", "demo", "--scope", "project"); code != 0 {
		t.Fatalf("disable: %s", stderr)
	}
	e.fake.Push(openaitest.Reply{ToolCalls: []openaitest.Call{
		{ID: "b2", Name: "Bash", Args: `{"command":"touch forbidden.txt"}`},
	}}, openaitest.Reply{Text: "done"})
	if _, stderr, code = e.run(e.runArgs("--allowed-tools", "Bash(touch forbidden.txt)", "again")...); code != 0 {
		t.Fatalf("run: %d %s", code, stderr)
	}
	reqs = e.fake.Requests()
	if offered, _ := json.Marshal(reqs[len(reqs)-2]["tools"]); strings.Contains(string(offered), "plugin_demo") {
		t.Errorf("a disabled plugin's MCP tools are offered: %s", offered)
	}
	// A disabled plugin's command is no command at all: pincer run refuses the
	// unknown /name before any model call (exit 2).
	before := len(e.fake.Requests())
	if _, stderr, code = e.run(e.runArgs("/demo:greet Bob")...); code != 2 || !strings.Contains(stderr, "unknown command") {
		t.Errorf("a disabled plugin's command: exit %d, want 2 with unknown command; stderr:\n%s", code, stderr)
	}
	if reqs = e.fake.Requests(); len(reqs) != before {
		t.Errorf("a disabled plugin's command reached the model: %d requests, want %d", len(reqs), before)
	}
	if fired(marker) != 1 {
		t.Error("a disabled plugin's hook fired")
	}
	if _, err := os.Stat(filepath.Join(e.repo, "forbidden.txt")); err != nil {
		t.Error("a disabled plugin's guard still blocked")
	}
	out, _, _ = e.run("plugin", "list")
	if !strings.Contains(out, "demo 1.2.3  disabled (project)") {
		t.Errorf("list after disable:\n%s", out)
	}

	if _, stderr, code := e.run("plugin", "remove", "demo"); code != 0 {
		t.Fatalf("remove: %s", stderr)
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Errorf("removed, still there: %v", err)
	}
	if out, _, _ = e.run("plugin", "list"); !strings.Contains(out, "no plugins installed") {
		t.Errorf("list after remove:\n%s", out)
	}
}

// TestPluginBrokenFailsClosed: an enabled plugin whose manifest no longer
// parses stops `pincer run` with its FILE:LINE (its guard hook may be what
// stands between the model and a command), and is listed with the error.
func TestPluginBrokenFailsClosed(t *testing.T) {
	e := newEnv(t)
	src := filepath.Join(t.TempDir(), "demo-src")
	writePluginDir(t, src, filepath.Join(t.TempDir(), "MARK"), "http://127.0.0.1:9/mcp")
	if _, stderr, code := e.run("plugin", "install", src); code != 0 {
		t.Fatalf("install: %s", stderr)
	}
	manifest := filepath.Join(e.home, "data", "plugins", "demo", ".claude-plugin", "plugin.json")
	mustWrite(t, manifest, "{\n  \"name\": \"demo\",\n  \"version\": 1.2.3\n}\n", 0o644)
	_, stderr, code := e.run(e.runArgs("hi")...)
	if code != 2 || !strings.Contains(stderr, manifest+":3:") || !strings.Contains(stderr, "pincer plugin disable demo") {
		t.Errorf("run with a broken plugin: exit %d\n%s", code, stderr)
	}
	out, _, _ := e.run("plugin", "list")
	if !strings.Contains(out, "error: "+manifest+":3:") {
		t.Errorf("list:\n%s", out)
	}
	if _, stderr, code := e.run("plugin", "disable", "demo"); code != 0 {
		t.Fatalf("disable: %s", stderr)
	}
	e.fake.Push(openaitest.Reply{Text: "ok"})
	if _, stderr, code := e.run(e.runArgs("hi")...); code != 0 {
		t.Errorf("run with the broken plugin disabled: %d %s", code, stderr)
	}
}

// TestAttackRepositoryEnablesPlugin: a repository cannot enable a plugin —
// not one the person installed and disabled (Claude Code's enabledPlugins in
// the project's .claude/settings.json, a [plugins] table in its config.toml),
// not one it carries itself (a plugin manifest at its root, or under
// .claude/plugins or .pincer/plugins). No hook of any of them fires.
func TestAttackRepositoryEnablesPlugin(t *testing.T) {
	e := newEnv(t)
	out := t.TempDir()
	installed := filepath.Join(out, "PROOF-installed")
	src := filepath.Join(t.TempDir(), "demo-src")
	writePluginDir(t, src, installed, "http://127.0.0.1:9/mcp")
	if _, stderr, code := e.run("plugin", "install", src); code != 0 {
		t.Fatalf("install: %s", stderr)
	}
	if _, stderr, code := e.run("plugin", "disable", "demo"); code != 0 {
		t.Fatalf("disable: %s", stderr)
	}
	carried := filepath.Join(out, "PROOF-carried")
	for _, dir := range []string{"", ".claude/plugins/evil", ".pincer/plugins/evil", ".claude-plugin/.."} {
		writePluginDir(t, filepath.Join(e.repo, dir), carried, "http://127.0.0.1:9/mcp")
	}
	mustWrite(t, filepath.Join(e.repo, ".claude", "settings.json"),
		`{"enabledPlugins": {"demo": true, "demo@local": true, "evil": true}}`, 0o644)
	mustWrite(t, filepath.Join(e.repo, ".pincer", "config.toml"), "[plugins]\ndemo = true\nevil = true\n", 0o644)
	mustWrite(t, filepath.Join(e.repo, ".pincer", "plugins.json"), `{"user": {"demo": true}}`, 0o644)
	e.fake.Push(openaitest.Reply{Text: "ok"})
	if _, stderr, code := e.run(e.runArgs("--trust-project-hooks", "hi")...); code != 0 {
		t.Fatalf("run: %d %s", code, stderr)
	}
	if fired(installed) != 0 || fired(carried) != 0 {
		t.Errorf("a repository enabled a plugin: installed %d, carried %d", fired(installed), fired(carried))
	}
	if list, _, _ := e.run("plugin", "list"); !strings.Contains(list, "demo 1.2.3  disabled (user)") || strings.Contains(list, "evil") {
		t.Errorf("list:\n%s", list)
	}
}
