package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/core/app"
	"pincer/core/provider/providertest"
)

func TestPluginLines(t *testing.T) {
	if got := pluginLines(nil); got != nil {
		t.Errorf("no plugins: %q", got)
	}
	got := strings.Join(pluginLines([]app.PluginSummary{{Name: "demo", Version: "1.0", Origin: "plugin:demo",
		Skills: []string{"/demo:tidy"}, Agents: []string{"demo:rev"}, LSPServers: []string{"go (gopls)"}}}), "\n")
	for _, want := range []string{"Plugins (", "  demo 1.0  (plugin:demo)", "    skills: /demo:tidy",
		"    agents: demo:rev (/agents)", "    lsp servers: go (gopls) — recorded, not yet used"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "commands:") {
		t.Errorf("an empty kind listed:\n%s", got)
	}
}

// The help screen lists the enabled plugins the backend reports.
func TestHelpScreenListsPlugins(t *testing.T) {
	b := startBench(t, 160, 50, Options{})
	ag, _ := newTestAgent(t, &providertest.Scripted{})
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	be := backendOf(ag)
	be.PluginList = []app.PluginSummary{{Name: "demo", Version: "1.2.3", Origin: "plugin:demo",
		Commands: []string{"/demo:greet"}, Agents: []string{"demo:reviewer"}}}
	b.w.Attach(be, s.ID)
	b.waitText(shortID(s.ID) + " · idle")
	b.key(tcell.KeyTab, 0, tcell.ModNone)
	b.typeText("?")
	b.waitText("Help — Esc")
	// Scrolled to, not jumped to with G: lines loaded after the jump (the
	// commands' list) left it short of the end under load (make test).
	b.helpShows("Plugins (pincer plugin list", "demo 1.2.3  (plugin:demo)", "commands: /demo:greet", "agents: demo:reviewer (/agents)")
}
