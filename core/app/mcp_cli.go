package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"pincer/core/config"
	"pincer/core/mcp"
)

// What `pincer mcp list|get|add|remove|approve` runs (ui/cli parses and
// prints): the servers of the project here as a run would build them, a
// one-shot connection to each (as `claude mcp list` checks), and the writes
// of add and remove through core/config's writers.

// MCPConfigured is the MCP configuration of one project.
type MCPConfigured struct {
	Root    string             // the workspace (the current directory's)
	Servers []mcp.ServerConfig // as Setup.MCPServers, Approved set
	// Warnings are the configuration's problems that left a server (or a file)
	// out, one line each; Failure is the fatal one, if any (nil: none).
	Warnings []string
	Failure  error
}

// LoadMCPServers reads the MCP servers of the current directory's project (and
// the --mcp-config values mcpConfigs) as Prepare does, without the model, the
// tools or the store.
func LoadMCPServers(mcpConfigs []string) (*MCPConfigured, error) {
	ws, err := WorkspaceHere()
	if err != nil {
		return nil, err
	}
	paths := config.PathsFrom(os.Getenv)
	src := config.Read(paths, ws.Root())
	for _, v := range mcpConfigs {
		src.MCPConfigArg(v)
	}
	var report configReport
	report.add(src.Errors())
	out := &MCPConfigured{Root: ws.Root(), Servers: withPluginServers(mcpServersFrom(src, &report), paths, ws.Root(), &report)}
	out.Warnings = dedupe(report.warnings)
	out.Failure = report.failure()
	return out, nil
}

// Lookup returns the server named name.
func (c *MCPConfigured) Lookup(name string) (mcp.ServerConfig, bool) {
	for _, s := range c.Servers {
		if s.Name == name {
			return s, true
		}
	}
	return mcp.ServerConfig{}, false
}

// mcpOptions are the Manager options of the project at root: stdio servers run
// there, their stderr goes to DATA/mcp-logs/SERVER.log, and they get the
// sandbox's environment allowlist (mcp.Options' default) plus their entry's env.
func mcpOptions(root, version string) mcp.Options {
	o := mcp.Options{Dir: root, ClientVersion: version}
	if p := config.PathsFrom(os.Getenv); p.Data != "" {
		o.LogDir = filepath.Join(p.Data, "mcp-logs")
		o.CacheDir = filepath.Join(p.Data, "mcp-cache") // hidden from commands (sandbox.PincerDirs)
		o.RunDir = filepath.Join(p.Data, "mcp-run")
	}
	return o
}

// ProbeMCPServers connects to each server once, all at the same time, each for
// at most timeout, and returns their states in the order given: ready with its
// tools, prompts and resources, or failed with the reason. A server not
// approved (or disabled) is not started: its state says so.
func ProbeMCPServers(ctx context.Context, root, version string, servers []mcp.ServerConfig, timeout time.Duration) []mcp.ServerState {
	out := make([]mcp.ServerState, len(servers))
	var wg sync.WaitGroup
	for i, s := range servers {
		if !s.Approved {
			out[i] = UnstartedMCPState(s)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := mcpOptions(root, version)
			o.TimeoutHint = "--timeout / MCP_TIMEOUT"
			out[i] = mcp.Probe(ctx, s, o, timeout)
		}()
	}
	wg.Wait()
	return out
}

// UnstartedMCPState is the state of a server that is not started: disabled,
// or needing approval with the command it would run as the reason, or —
// an entry that cannot start (ServerConfig.Broken) — failed with that reason.
func UnstartedMCPState(s mcp.ServerConfig) mcp.ServerState {
	if s.Broken != "" {
		return mcp.ServerState{Config: s, Status: mcp.StatusFailed, Reason: s.Broken, LastError: s.Broken}
	}
	if s.Disabled {
		return mcp.ServerState{Config: s, Status: mcp.StatusDisabled, Reason: "disabled in ~/.claude/settings.json (disabledMcpjsonServers)"}
	}
	return mcp.ServerState{Config: s, Status: mcp.StatusNeedsApproval, Reason: "would run: " + MCPServerCommand(s)}
}

// AddMCPServerTo writes spec into the user's config.toml (mcp.ScopeUser) or
// the project's .mcp.json at root (mcp.ScopeProject), and returns the file
// written.
func AddMCPServerTo(root string, scope mcp.Scope, spec config.MCPServerSpec) (string, error) {
	switch scope {
	case mcp.ScopeUser:
		p := config.PathsFrom(os.Getenv).UserConfig
		return p, config.AddMCPServer(p, spec)
	case mcp.ScopeProject:
		p := config.MCPJSONPath(root)
		return p, config.AddMCPJSONServer(p, spec)
	}
	return "", usagef("--scope %s: want user or project", scope)
}

// ErrMCPNotFound is RemoveMCPServerFrom's error for a name no file of the
// scopes searched has.
var ErrMCPNotFound = errors.New("no such MCP server")

// RemoveMCPServerFrom removes the server name from the user's config.toml
// (mcp.ScopeUser), the project's .mcp.json (mcp.ScopeProject), or — scope "" —
// the one of the two that has it (both having it is a usage error naming
// them). It returns the file changed.
func RemoveMCPServerFrom(root string, scope mcp.Scope, name string) (string, error) {
	user, project := config.PathsFrom(os.Getenv).UserConfig, config.MCPJSONPath(root)
	if scope == "" {
		inUser, inProject := hasMCPEntry(root, config.UserConfig, name), hasMCPEntry(root, config.ProjectMCP, name)
		switch {
		case inUser && inProject:
			return "", usagef("%s is in both %s and %s: say which with --scope user or --scope project", name, user, project)
		case inProject:
			scope = mcp.ScopeProject
		default:
			scope = mcp.ScopeUser
		}
	}
	var found bool
	var err error
	var path string
	switch scope {
	case mcp.ScopeUser:
		path = user
		found, err = config.RemoveMCPServer(user, name)
	case mcp.ScopeProject:
		path = project
		found, err = config.RemoveMCPJSONServer(project, name)
	default:
		return "", usagef("--scope %s: want user or project", scope)
	}
	if err == nil && !found {
		if hasMCPEntry(root, config.ClaudeState, name) {
			home := config.PathsFrom(os.Getenv).Home
			return path, fmt.Errorf("%w %q in %s: it is in %s (Claude Code's file, which pincer reads but does not write); `claude mcp remove %s` removes it", ErrMCPNotFound, name, path, config.ClaudeStatePath(home), name)
		}
		if plug := pluginOfServer(root, name); plug != "" {
			return path, fmt.Errorf("%w %q in %s: it comes from the plugin %s; `pincer plugin disable %s` stops it", ErrMCPNotFound, name, path, plug, plug)
		}
		err = fmt.Errorf("%w %q in %s", ErrMCPNotFound, name, path)
	}
	return path, err
}

// pluginOfServer is the enabled plugin whose server is called name at root
// ("" for none): `pincer mcp remove plugin_P_S` points at `pincer plugin
// disable P`, as a plugin's servers live in no file mcp remove edits.
func pluginOfServer(root, name string) string {
	paths := config.PathsFrom(os.Getenv)
	var report configReport
	for _, s := range withPluginServers(nil, paths, root, &report) {
		if s.Name == name && s.Scope == mcp.ScopePlugin {
			return s.Plugin
		}
	}
	return ""
}

// hasMCPEntry reports whether the source kind of root's configuration has an
// entry named name (read as written: a broken entry counts, so it can be
// removed).
func hasMCPEntry(root string, kind config.Kind, name string) bool {
	src := config.Read(config.PathsFrom(os.Getenv), root)
	return src.HasMCPEntry(kind, name)
}
