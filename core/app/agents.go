package app

import (
	"os"

	"pincer/core/config"
	"pincer/core/subagent"
)

// loadAgents discovers the session's agent definitions (core/subagent:
// built-in, project .claude/agents, the user's ~/.claude/agents and pincer's
// config dir agents/, the enabled plugins' agents) into Setup.Agents, once,
// and says what it passed over as warnings. It runs after the plugins are
// loaded (their layer).
func (s *Setup) loadAgents() {
	paths := config.PathsFrom(os.Getenv)
	d := subagent.DirsFor(s.Workspace.Root(), paths.Home, paths.Config)
	d.Plugins = s.AgentPlugins()
	s.Agents = subagent.Discover(d)
	for _, p := range s.Agents.Problems {
		s.Warnings = append(s.Warnings, p.Error())
	}
}

// AgentPlugins is the enabled plugins' layer of agent discovery: each
// plugin's agents/*.md files (core/plugin found them), namespaced by its name.
func (s *Setup) AgentPlugins() []subagent.Plugin {
	var out []subagent.Plugin
	for _, p := range s.Plugins {
		sp := subagent.Plugin{Name: p.Name, Root: p.Root}
		for _, a := range p.Agents {
			sp.Files = append(sp.Files, a.Path)
		}
		if len(sp.Files) > 0 {
			out = append(out, sp)
		}
	}
	return out
}
