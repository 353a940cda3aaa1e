package tui

import (
	"strings"
	"testing"

	"pincer/core/app"
)

// TestConfigFileLines: each file's state as /status and /config show it.
func TestConfigFileLines(t *testing.T) {
	for _, c := range []struct {
		f    app.ConfigFile
		want string
	}{
		{app.ConfigFile{Name: "user config", Path: "/h/config.toml"}, "absent  (/h/config.toml)"},
		{app.ConfigFile{Name: "user config", Path: "/h/config.toml", Exists: true}, "ok  (/h/config.toml)"},
		{app.ConfigFile{Name: ".mcp.json", Path: "/w/.mcp.json", Exists: true, Project: true, NotStarted: 4}, "parses, but 4 MCP servers cannot start (/mcp)  (/w/.mcp.json, the repository's)"},
		{app.ConfigFile{Name: ".mcp.json", Path: "/w/.mcp.json", Exists: true, NotStarted: 1}, "parses, but 1 MCP server cannot start (/mcp)"},
		{app.ConfigFile{Name: ".mcp.json", Path: "/w/.mcp.json", Exists: true, Problem: "/w/.mcp.json:3:1: bad", NotStarted: 2}, "PROBLEM: /w/.mcp.json:3:1: bad"},
	} {
		got := configFileLines([]app.ConfigFile{c.f})
		if len(got) != 1 || !strings.Contains(got[0], c.want) {
			t.Errorf("%+v: %q, want it to contain %q", c.f, got, c.want)
		}
	}
}
