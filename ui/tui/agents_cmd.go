package tui

import (
	"fmt"
	"strings"

	"pincer/core/app"
	"pincer/ui/termtext"
)

// helpTopicAgents is the help screen's topic while /agents shows it.
const helpTopicAgents = "agents"

// agentLister is the part of a Backend that lists the run's agent
// definitions (app.Backend has it; a backend without it lists none).
type agentLister interface {
	Agents() []app.AgentInfo
}

// slashAgents is /agents: the agent types the Agent tool can start, read
// only, on the help screen (Esc closes it; j/k scroll).
func (w *Workbench) slashAgents([]string) bool {
	w.helpOpen, w.helpOffset, w.helpTopic = true, 0, helpTopicAgents
	return true
}

// agentHelpLines are /agents' lines for the backend's definitions.
func (w *Workbench) agentHelpLines() []string {
	var list []app.AgentInfo
	if al, ok := w.be.(agentLister); ok {
		list = al.Agents()
	}
	return agentLines(list)
}

// agentLines renders definitions for /agents (pure): a heading, then per
// definition "  NAME  (ORIGIN)", its tools, the fields it sets, its
// description and file, indented. A file's text is one clean line each
// (termtext.Line: no escapes reach the screen).
func agentLines(list []app.AgentInfo) []string {
	lines := []string{"Agents — the Agent tool's subagent_type (pincer agents list; Esc closes, j/k scroll)", ""}
	if len(list) == 0 {
		return append(lines, "  none: the store is still opening")
	}
	for _, a := range list {
		lines = append(lines, fmt.Sprintf("  %s  (%s)", termtext.Line(a.Name), a.Origin))
		var f []string
		f = append(f, "tools: "+termtext.Line(a.Tools))
		if a.ReadOnly {
			f = append(f, "read-only")
		} else if a.PermissionMode != "" {
			f = append(f, "mode: "+a.PermissionMode+" if stricter")
		}
		if a.Model != "" {
			f = append(f, "model: "+termtext.Line(a.Model))
		}
		if a.MaxTurns > 0 {
			f = append(f, fmt.Sprintf("max turns: %d", a.MaxTurns))
		}
		if a.Isolation != "" {
			f = append(f, "isolation: "+a.Isolation)
		}
		lines = append(lines, "    "+strings.Join(f, " · "), "    "+termtext.Line(a.Description))
		if a.Path != "" {
			lines = append(lines, "    "+termtext.Line(a.Path))
		}
	}
	return lines
}
