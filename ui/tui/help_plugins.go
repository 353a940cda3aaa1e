package tui

import (
	"strings"

	"pincer/core/app"
)

// pluginLister is the part of a Backend that lists the run's enabled plugins
// (app.Backend has it; a backend without it lists none).
type pluginLister interface {
	Plugins() []app.PluginSummary
}

// pluginHelpLines are the help screen's Plugins section: each enabled plugin
// with its origin and what it contributes; its LSP servers are
// marked "recorded, not yet used" (diagnostics come later).
// Nothing when no plugin is enabled.
func (w *Workbench) pluginHelpLines() []string {
	pl, ok := w.be.(pluginLister)
	if !ok {
		return nil
	}
	return pluginLines(pl.Plugins())
}

// pluginLines renders plugin summaries for the help screen (pure).
func pluginLines(ps []app.PluginSummary) []string {
	if len(ps) == 0 {
		return nil
	}
	lines := []string{"", "Plugins (pincer plugin list; enable/disable on the command line)"}
	for _, p := range ps {
		head := "  " + p.Name
		if p.Version != "" {
			head += " " + p.Version
		}
		lines = append(lines, head+"  ("+p.Origin+")")
		item := func(what string, names []string, note string) {
			if len(names) > 0 {
				lines = append(lines, "    "+what+": "+strings.Join(names, ", ")+note)
			}
		}
		item("skills", p.Skills, "")
		item("commands", p.Commands, "")
		item("hooks", p.Hooks, "")
		item("mcp servers", p.MCPServers, "")
		item("agents", p.Agents, " (/agents)")
		item("lsp servers", p.LSPServers, " — recorded, not yet used")
	}
	return lines
}
