package app

import (
	"os"
	"strings"

	"pincer/core/config"
	"pincer/sandbox"
)

// ConfigFile is one configuration file of the workspace as it is on disk
// now (config.Read, the one reader): /config and /status list them.
type ConfigFile struct {
	// Name is the short name ("user config", ".pincer/config.toml", ...) and
	// Path the file.
	Name, Path string
	// Exists is set when the file is there; Problem is why it contributes
	// nothing ("": it parsed), FILE:LINE: what.
	Exists  bool
	Problem string
	// Project marks a file that comes with the repository (not trusted).
	Project bool
	// NotStarted counts the MCP servers the file configures that cannot
	// start for a problem of their own entry (config.BrokenMCPServers): the
	// file parses, yet what it names starts nothing (red team r23 W1: /status
	// said ".mcp.json ok" with every server refused).
	NotStarted int
}

// ConfigFiles reads the workspace's configuration files now (the user's and
// the project's, in merge order, absent ones too): whether each exists and
// parses. A file changed since start shows its state now; the run keeps
// what it read at start.
func (b *Backend) ConfigFiles() []ConfigFile {
	src := config.Read(config.PathsFrom(os.Getenv), b.Repo)
	broken := map[string]int{}
	for _, e := range src.BrokenMCPServers(os.LookupEnv) {
		broken[e.Path]++
	}
	var out []ConfigFile
	for _, d := range src.Docs {
		if d.Same || d.Kind == config.MCPFlag {
			continue
		}
		f := ConfigFile{Name: d.Name, Path: d.Path, Exists: d.Exists, Project: d.Project, NotStarted: broken[d.Path]}
		if d.Err != nil {
			f.Problem = d.Err.Error()
		}
		out = append(out, f)
	}
	return out
}

// SandboxLines describe the OS sandbox commands run in: the machine's
// capabilities (sandbox.Probe, as `pincer doctor` shows them) and whether
// the network is allowed, one line each; one line saying so when commands
// run without it (--no-sandbox, or sandbox disabled in the config).
func (b *Backend) SandboxLines() []string {
	if b.Sandbox == nil {
		return []string{"off: commands run without the OS sandbox (--no-sandbox or the config's sandbox setting)"}
	}
	lines := strings.Split(strings.TrimRight(sandbox.Probe().String(), "\n"), "\n")
	if b.Sandbox.Network {
		return append(lines, "network: allowed (--allow-network or the config)")
	}
	return append(lines, "network: blocked for commands (a namespace of their own where the machine can)")
}
