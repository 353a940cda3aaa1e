package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/core/app"
	"pincer/core/provider/providertest"
)

func TestAgentLines(t *testing.T) {
	got := strings.Join(agentLines([]app.AgentInfo{
		{Name: "Explore", Origin: "built-in", Tools: "Glob, Grep, Read, Bash", ReadOnly: true, Description: "Fast read-only agent."},
		{Name: "fixer", Origin: "project", Tools: "All tools except Write", PermissionMode: "acceptEdits", Model: "haiku",
			MaxTurns: 4, Isolation: "worktree", Description: "Fixes \x1b]0;pwned\x07 lint.", Path: "/r/.claude/agents/fixer.md"},
	}), "\n")
	for _, want := range []string{"Agents — the Agent tool's subagent_type", "  Explore  (built-in)",
		"    tools: Glob, Grep, Read, Bash · read-only", "  fixer  (project)",
		"    tools: All tools except Write · mode: acceptEdits if stricter · model: haiku · max turns: 4 · isolation: worktree",
		"    /r/.claude/agents/fixer.md"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	if strings.ContainsAny(got, "\x1b\x07") {
		t.Errorf("an escape reached the screen: %q", got)
	}
}

// /agents shows the backend's definitions on the help screen; Esc closes
// it, and ? then opens the whole help again.
func TestSlashAgentsShowsDefinitions(t *testing.T) {
	b := startBench(t, 160, 50, Options{})
	ag, _ := newTestAgent(t, &providertest.Scripted{})
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	be := backendOf(ag)
	be.AgentList = []app.AgentInfo{{Name: "general-purpose", Origin: "built-in", Tools: "All tools", Description: "Does anything."},
		{Name: "demo:reviewer", Origin: "plugin:demo", Tools: "Read, Grep", Description: "Reviews diffs."}}
	b.w.Attach(be, s.ID)
	b.waitText(shortID(s.ID) + " · idle")
	b.typeText("/agents")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("Agents — the Agent tool's subagent_type", "general-purpose  (built-in)", "demo:reviewer  (plugin:demo)", "Reviews diffs.")
	if strings.Contains(b.text(), "Help — Esc") {
		t.Error("/agents showed the whole help screen")
	}
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.waitFor("the list to close", func(screen string) bool { return !strings.Contains(screen, "demo:reviewer  (plugin:demo)") })
	b.key(tcell.KeyTab, 0, tcell.ModNone)
	b.typeText("?")
	b.waitText("Help — Esc")
	if strings.Contains(b.text(), "Agents — the Agent tool's") {
		t.Error("the help screen kept /agents' topic")
	}
}
