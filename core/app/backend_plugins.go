package app

import (
	"fmt"

	"pincer/core/plugin"
)

// PluginSummary is one enabled plugin as the workbench's /help lists it: its
// name and version and what it contributes, each item by the name the person
// or the model sees ("/demo:tidy", "plugin_demo_db", "demo:reviewer").
type PluginSummary struct {
	Name, Version string
	Origin        string // "plugin:NAME"
	Skills        []string
	Commands      []string
	Hooks         []string // "EVENT [MATCHER]: COMMAND"
	MCPServers    []string
	// Agents are its agent definitions ("demo:reviewer": the Agent tool's
	// subagent_type); LSPServers are recorded for diagnostics to come:
	// listed, not yet used.
	Agents     []string
	LSPServers []string
}

// PluginSummaries summarises the plugins a Setup loaded (Setup.Plugins).
func PluginSummaries(ps []*plugin.Plugin) []PluginSummary {
	var out []PluginSummary
	for _, p := range ps {
		s := PluginSummary{Name: p.Name, Origin: p.Origin(), Hooks: p.HookSummaries()}
		if p.Manifest != nil {
			s.Version = p.Manifest.Version
		}
		for _, n := range p.SkillNames() {
			s.Skills = append(s.Skills, "/"+n)
		}
		for _, n := range p.CommandNames() {
			s.Commands = append(s.Commands, "/"+n)
		}
		for _, m := range p.MCPServers {
			s.MCPServers = append(s.MCPServers, m.Name)
		}
		for _, a := range p.Agents {
			s.Agents = append(s.Agents, a.Name)
		}
		for _, l := range p.LSPServers {
			s.LSPServers = append(s.LSPServers, fmt.Sprintf("%s (%s)", l.Name, l.Command))
		}
		out = append(out, s)
	}
	return out
}

// Plugins returns the enabled plugins of the run (Backend.PluginList), for
// /help.
func (b *Backend) Plugins() []PluginSummary { return b.PluginList }
