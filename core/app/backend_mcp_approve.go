package app

import (
	"fmt"
	"path/filepath"

	"pincer/core/config"
	"pincer/core/mcp"
)

// ApproveMCP records the person's approval of the project server cfg — the
// entry as the /mcp view showed it, whose fingerprint the record keeps — for
// the project whose .mcp.json holds it, then starts it (SetMCPServer with
// Approved set). Only a person's keypress in the view calls it. Should the
// file change after it was shown, the record still holds what was shown: the
// changed entry is not approved by it.
func (b *Backend) ApproveMCP(cfg mcp.ServerConfig) error {
	if cfg.Disabled {
		return fmt.Errorf("MCP server %s is refused by disabledMcpjsonServers in ~/.claude/settings.json", cfg.Name)
	}
	if cfg.Scope != mcp.ScopeProject || filepath.Base(cfg.File) != filepath.Base(config.MCPJSONPath("")) {
		return fmt.Errorf("MCP server %s is not a project .mcp.json server: it needs no approval", cfg.Name)
	}
	if err := ApproveMCPServer(filepath.Dir(cfg.File), cfg); err != nil {
		return err
	}
	cfg.Approved, cfg.Disabled = true, false
	b.SetMCPServer(cfg)
	return nil
}
