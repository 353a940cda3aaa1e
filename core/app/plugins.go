package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"pincer/core/config"
	"pincer/core/mcp"
	"pincer/core/plugin"
	"pincer/core/skill"
)

// Plugins in a run (core/plugin). Prepare loads the plugins enabled for the
// workspace — the record of that is in pincer's data directory, never in the
// repository — and hands their contributions to the readers: hooks to the
// hook runner (trusted: the person installed and enabled the plugin; each
// marked with its origin), MCP servers to Setup.MCPServers (scope plugin,
// named plugin_PLUGIN_SERVER), skills and commands to the catalog (namespaced
// /PLUGIN:NAME). An enabled plugin that does not load, or a plugin state file
// that does not parse, is a fatal configuration problem like a hook file that
// does not parse (a plugin's PreToolUse hook may be a guard): `pincer run`
// stops with its FILE:LINE, the workbench denies every tool.

// loadPlugins loads the enabled plugins into s.Plugins, their problems into
// report, and returns their hook tables.
func (s *Setup) loadPlugins(paths config.Paths, root string, report *configReport) []config.HookTable {
	ps, err := plugin.Enabled(paths, root)
	if err != nil {
		report.add([]error{fmt.Errorf("plugins: %w (no plugin is enabled until it is fixed)", err)})
	}
	var tables []config.HookTable
	for _, p := range ps {
		if len(p.Errors) > 0 {
			for _, e := range p.Errors {
				report.add([]error{fmt.Errorf("%w (plugin %s contributes nothing; pincer plugin disable %s runs without it)", e, p.Name, p.Name)})
			}
			continue
		}
		s.Plugins = append(s.Plugins, p)
		tables = append(tables, p.Hooks...)
		s.MCPServers = addPluginServers(s.MCPServers, p, report)
	}
	return tables
}

// withPluginServers is servers with the enabled plugins' servers added, as
// Prepare builds Setup.MCPServers (for `pincer mcp list|get`).
func withPluginServers(servers []mcp.ServerConfig, paths config.Paths, root string, report *configReport) []mcp.ServerConfig {
	s := &Setup{MCPServers: servers}
	s.loadPlugins(paths, root, report)
	return s.MCPServers
}

// addPluginServers adds p's MCP servers to servers, keeping name order. A name
// some configured server already has (a plugin_P_S the person or the project
// chose) keeps that one; the plugin's is not started, with a warning.
func addPluginServers(servers []mcp.ServerConfig, p *plugin.Plugin, report *configReport) []mcp.ServerConfig {
	for _, ps := range p.MCPServers {
		i, found := slices.BinarySearchFunc(servers, ps.Name, func(s mcp.ServerConfig, name string) int { return strings.Compare(s.Name, name) })
		if found {
			report.warnings = append(report.warnings, fmt.Sprintf("plugin %s: MCP server %s not started: %s (%s) has that name", p.Name, ps.Name, servers[i].File, servers[i].Scope))
			continue
		}
		servers = slices.Insert(servers, i, ps)
	}
	return servers
}

// pluginPaths are the config paths of this process's environment.
func pluginPaths() config.Paths { return config.PathsFrom(nil) }

// pluginWorkspace is the workspace root of the current directory, for the
// project scope.
func pluginWorkspace() (string, error) {
	ws, err := WorkspaceHere()
	if err != nil {
		return "", err
	}
	return ws.Root(), nil
}

// InstallPlugin installs a plugin from a directory or a git URL and enables
// it for scope ("user", "project": this directory's workspace); see
// plugin.Install. A bad scope is a UsageError.
func InstallPlugin(ctx context.Context, source, scope string) (*plugin.Plugin, error) {
	sc, err := plugin.ParseScope(scope)
	if err != nil {
		return nil, usagef("%v", err)
	}
	root, err := pluginWorkspace()
	if err != nil {
		return nil, err
	}
	return plugin.Install(ctx, pluginPaths(), source, sc, root)
}

// ListPlugins lists the installed plugins, enabled or not in this directory's
// workspace (plugin.List).
func ListPlugins() ([]plugin.Installed, error) {
	root, err := pluginWorkspace()
	if err != nil {
		return nil, err
	}
	return plugin.List(pluginPaths(), root)
}

// SetPluginEnabled enables or disables an installed plugin for scope ("user",
// "project": this directory's workspace). A bad scope is a UsageError.
func SetPluginEnabled(name, scope string, on bool) error {
	sc, err := plugin.ParseScope(scope)
	if err != nil {
		return usagef("%v", err)
	}
	root, err := pluginWorkspace()
	if err != nil {
		return err
	}
	return plugin.SetEnabled(pluginPaths(), name, sc, root, on)
}

// RemovePlugin deletes an installed plugin and its records.
func RemovePlugin(name string) error { return plugin.Remove(pluginPaths(), name) }

// SkillPlugins are the enabled plugins' skill and command directories for
// skill.Discover's plugin layer (Dirs.Plugins): each plugin's skills and
// commands become /PLUGIN:NAME with origin plugin:PLUGIN, after the
// built-ins and before the user's.
func (s *Setup) SkillPlugins() []skill.Plugin {
	var out []skill.Plugin
	for _, p := range s.Plugins {
		out = append(out, skill.Plugin{Name: p.Name, SkillDirs: p.SkillDirs, CmdDirs: p.CommandPaths})
	}
	return out
}
