package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/config"
	"pincer/core/hook"
	"pincer/core/mcp"
	"pincer/core/plugin"
	"pincer/core/skill"
	"pincer/sandbox"
	"pincer/tools"
)

// pluginSetup installs a plugin under a fresh PINCER_HOME and reads the
// configuration of a workspace as Prepare does.
func pluginSetup(t *testing.T, files map[string]string, mcpJSON string, failClosed bool) (*Setup, error) {
	t.Helper()
	t.Setenv("PINCER_HOME", t.TempDir())
	src := filepath.Join(t.TempDir(), "src")
	for name, body := range files {
		p := filepath.Join(src, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	ws := t.TempDir()
	if mcpJSON != "" {
		os.WriteFile(filepath.Join(ws, ".mcp.json"), []byte(mcpJSON), 0o644)
	}
	if _, err := plugin.Install(context.Background(), config.PathsFrom(os.Getenv), src, plugin.ScopeUser, ws); err != nil {
		t.Fatal(err)
	}
	w, err := sandbox.NewWorkspace(ws)
	if err != nil {
		t.Fatal(err)
	}
	s := &Setup{Options: Options{FailClosed: failClosed}, Tools: tools.Default(), Workspace: w}
	return s, s.readConfig()
}

var guardPlugin = map[string]string{
	"plugin.json":      `{"name": "guard"}`,
	"hooks/hooks.json": `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 0"}]}]}}`,
	".mcp.json":        `{"mcpServers": {"db": {"command": "db-server"}, "web": {"type": "http", "url": "http://127.0.0.1:9/mcp"}}}`,
}

// An enabled plugin's hooks join the runner (not as project hooks, marked
// with its origin) and its servers join Setup.MCPServers (scope plugin,
// approved, named plugin_P_S, in name order with the configured ones).
func TestPluginContributionsInSetup(t *testing.T) {
	s, err := pluginSetup(t, guardPlugin, `{"mcpServers": {"zeta": {"command": "z"}, "alpha": {"command": "a"}}}`, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Plugins) != 1 || s.Plugins[0].Name != "guard" {
		t.Fatalf("plugins: %+v", s.Plugins)
	}
	defs := s.Hooks.Defs()[hook.PreToolUse]
	if len(defs) != 1 || defs[0].Origin != "plugin:guard" || defs[0].Project {
		t.Errorf("hook defs: %+v", defs)
	}
	var names []string
	for _, m := range s.MCPServers {
		names = append(names, m.Name)
		if strings.HasPrefix(m.Name, "plugin_") && (m.Scope != mcp.ScopePlugin || !m.Approved || m.Plugin != "guard") {
			t.Errorf("plugin server %+v", m)
		}
	}
	if got := strings.Join(names, " "); got != "alpha plugin_guard_db plugin_guard_web zeta" {
		t.Errorf("servers %q", got)
	}
}

// A configured server already named as a plugin's keeps its place; the
// plugin's is not started, with a warning.
func TestPluginServerNameTaken(t *testing.T) {
	s, err := pluginSetup(t, guardPlugin, `{"mcpServers": {"plugin_guard_db": {"command": "mine"}}}`, false)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range s.MCPServers {
		if m.Name == "plugin_guard_db" {
			n++
			if m.Scope != mcp.ScopeProject || m.Command != "mine" {
				t.Errorf("%+v", m)
			}
		}
	}
	if n != 1 || !strings.Contains(strings.Join(s.Warnings, "\n"), "MCP server plugin_guard_db not started") {
		t.Errorf("n=%d warnings %q", n, s.Warnings)
	}
}

// An enabled plugin that no longer loads fails closed: a ConfigFailure naming
// FILE:LINE and the way out; under FailClosed, no hook and no server.
func TestPluginBrokenIsFatal(t *testing.T) {
	for _, failClosed := range []bool{false, true} {
		t.Run(map[bool]string{false: "run", true: "workbench"}[failClosed], func(t *testing.T) {
			files := map[string]string{}
			for k, v := range guardPlugin {
				files[k] = v
			}
			files["agents/x.md"] = "fine\n"
			s, err := pluginSetup(t, files, "", failClosed)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Plugins) != 1 {
				t.Fatal("not loaded before the break")
			}
			home := os.Getenv("PINCER_HOME")
			agent := filepath.Join(home, "data", "plugins", "guard", "agents", "x.md")
			os.WriteFile(agent, []byte("---\nname: [oops\n---\n"), 0o644)
			s2 := &Setup{Options: s.Options, Tools: tools.Default(), Workspace: s.Workspace}
			err = s2.readConfig()
			if !failClosed {
				var cf *ConfigFailure
				if !errors.As(err, &cf) || !strings.Contains(err.Error(), agent+":") || !strings.Contains(err.Error(), "pincer plugin disable guard") {
					t.Fatalf("err %v", err)
				}
				return
			}
			if err != nil || len(s2.ConfigErrors) == 0 || s2.Hooks != nil || len(s2.MCPServers) != 0 || len(s2.Plugins) != 0 {
				t.Errorf("fail closed: err %v, errors %v, hooks %v, servers %v", err, s2.ConfigErrors, s2.Hooks, s2.MCPServers)
			}
		})
	}
}

// The plugin layer of skill discovery: /PLUGIN:x with origin plugin:PLUGIN.
func TestPluginSkillsInDiscovery(t *testing.T) {
	files := map[string]string{"plugin.json": `{"name": "kit"}`,
		"skills/tidy/SKILL.md": "---\nname: tidy\ndescription: Tidy up\n---\nTidy.\n", "commands/greet.md": "Greet $ARGUMENTS\n"}
	s, err := pluginSetup(t, files, "", false)
	if err != nil {
		t.Fatal(err)
	}
	c := skill.Discover(skill.Dirs{Plugins: s.SkillPlugins()})
	for _, name := range []string{"kit:tidy", "kit:greet"} {
		if sk, ok := c.Lookup(name); !ok || sk.Origin != skill.PluginOrigin("kit") {
			t.Errorf("/%s: %+v %v", name, sk, ok)
		}
	}
}

// `pincer mcp list|get` see the enabled plugins' servers as a run does.
func TestLoadMCPServersWithPlugins(t *testing.T) {
	s, err := pluginSetup(t, guardPlugin, "", false)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(s.Workspace.Root())
	c, err := LoadMCPServers(nil)
	if err != nil || c.Failure != nil {
		t.Fatal(err, c.Failure)
	}
	if sc, ok := c.Lookup("plugin_guard_db"); !ok || sc.Scope != mcp.ScopePlugin || !sc.Approved {
		t.Errorf("plugin server: %+v %v", sc, ok)
	}
}

// `pincer mcp remove plugin_P_S` points at `pincer plugin disable P`.
func TestRemovePluginServerPointsAtPlugin(t *testing.T) {
	s, err := pluginSetup(t, guardPlugin, "", false)
	if err != nil {
		t.Fatal(err)
	}
	_, err = RemoveMCPServerFrom(s.Workspace.Root(), "", "plugin_guard_db")
	if !errors.Is(err, ErrMCPNotFound) || !strings.Contains(err.Error(), "pincer plugin disable guard") {
		t.Errorf("remove: %v", err)
	}
	if _, err := RemoveMCPServerFrom(s.Workspace.Root(), "", "nosuch"); err == nil || strings.Contains(err.Error(), "plugin") {
		t.Errorf("remove nosuch: %v", err)
	}
}
