package mcp_test

import (
	"testing"

	"pincer/core/mcp"
	"pincer/core/mcp/mcptest"
	"pincer/tools"
)

// A plugin's server's tools carry the plugin as their origin (the audit trail
// and /mcp name it); a configured server's, the server.
func TestToolOriginOfPluginServer(t *testing.T) {
	g := mcptest.NewGoServer(t, false)
	reg := tools.NewRegistry()
	startManager(t, mcp.Options{Registry: reg},
		mcp.ServerConfig{Name: "plugin_demo_go", Transport: mcp.TransportHTTP, URL: g.URL, Scope: mcp.ScopePlugin, Plugin: "demo", Approved: true},
		mcp.ServerConfig{Name: "mine", Transport: mcp.TransportHTTP, URL: g.URL, Scope: mcp.ScopeUser, Approved: true})
	for name, want := range map[string]string{"mcp__plugin_demo_go__greet": "plugin:demo", "mcp__mine__greet": "mcp:mine"} {
		waitFor(t, name, func() bool { _, ok := reg.Get(name); return ok })
		tl, _ := reg.Get(name)
		if got := tl.Spec().Origin; got != want {
			t.Errorf("%s: origin %q, want %q", name, got, want)
		}
	}
}
