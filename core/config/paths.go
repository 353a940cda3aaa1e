package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Paths are every directory and file of pincer outside a workspace, resolved once
// from the environment. The rules (kept as the three resolvers before them had
// them):
//
//	Config       $PINCER_HOME, else $XDG_CONFIG_HOME/pincer, else $HOME/.config/pincer
//	UserConfig   Config/config.toml
//	Data         $PINCER_HOME/data, else $XDG_DATA_HOME/pincer, else $HOME/.local/share/pincer
//	Store        Data/store (the Badger store)
//	ToolResults  Data/tool-results (long tool outputs, by session)
//	Trust        Data/trusted-projects.json (the project-hook trust record)
//	MCPApprovals Data/mcp-approvals.json (the project MCP servers the person approved)
//	Run          $PINCER_HOME/run, else $XDG_RUNTIME_DIR/pincer, else $TMPDIR/pincer-<uid>
//	Home         $HOME (~/.claude/settings.json lives under it)
//
// A path is "" when nothing it derives from is set; then DataErr says why for
// Data and the paths under it.
type Paths struct {
	Config, UserConfig              string
	Data, Store, ToolResults, Trust string
	MCPApprovals                    string
	DataErr                         error
	Run                             string
	Home                            string
}

// PathsFrom resolves Paths with getenv (nil: os.Getenv).
func PathsFrom(getenv func(string) string) Paths {
	if getenv == nil {
		getenv = os.Getenv
	}
	p := Paths{Config: Dir(getenv), Home: getenv("HOME")}
	if p.Config != "" {
		p.UserConfig = filepath.Join(p.Config, "config.toml")
	}
	switch h, x := getenv("PINCER_HOME"), getenv("XDG_DATA_HOME"); {
	case h != "":
		p.Data = filepath.Join(h, "data")
	case x != "":
		p.Data = filepath.Join(x, "pincer")
	case p.Home != "":
		p.Data = filepath.Join(p.Home, ".local", "share", "pincer")
	default:
		p.DataErr = fmt.Errorf("cannot find a data directory: set PINCER_HOME (%v)", errors.New("$HOME is not defined"))
	}
	if p.Data != "" {
		p.Store = filepath.Join(p.Data, "store")
		p.ToolResults = filepath.Join(p.Data, "tool-results")
		p.Trust = filepath.Join(p.Data, "trusted-projects.json")
		p.MCPApprovals = filepath.Join(p.Data, "mcp-approvals.json")
	}
	switch h, x := getenv("PINCER_HOME"), getenv("XDG_RUNTIME_DIR"); {
	case h != "":
		p.Run = filepath.Join(h, "run")
	case x != "":
		p.Run = filepath.Join(x, "pincer")
	default:
		p.Run = filepath.Join(tempDir(getenv), fmt.Sprintf("pincer-%d", os.Getuid()))
	}
	return p
}

// tempDir is os.TempDir read through getenv: $TMPDIR, else the system's.
func tempDir(getenv func(string) string) string {
	if t := getenv("TMPDIR"); t != "" {
		return t
	}
	return os.TempDir()
}
