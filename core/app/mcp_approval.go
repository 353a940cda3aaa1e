package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"time"

	"pincer/core/config"
	"pincer/core/mcp"
	"pincer/core/smallfile"
)

// Approving a project's MCP servers. A .mcp.json comes with the repository, and
// a stdio server is a command pincer runs outside the sandbox: a cloned
// repository must not start one the moment pincer opens. So a project server
// starts only once the person approved it for that project — `pincer mcp
// approve NAME` or the workbench's /mcp view — and only while its entry is what
// was approved: the approval holds the entry's fingerprint (the SHA-256 of its
// type, command, args, env, url and headers as written), and a changed entry
// needs approving again. The record is mcp-approvals.json in the user's data
// directory, outside every workspace and hidden from sandboxed commands, so
// neither the repository nor the model can write it. Claude Code's own
// approvals count too, from the user's ~/.claude/settings.json only
// (enableAllProjectMcpServers, enabledMcpjsonServers by name,
// disabledMcpjsonServers refusing); a project's .claude/settings*.json cannot
// approve its own servers.

// maxMCPApprovalFile is the most bytes the approval record may hold.
const maxMCPApprovalFile = 4 << 20

// mcpApprovalRecord is mcp-approvals.json (config.Paths.MCPApprovals).
type mcpApprovalRecord struct {
	Version  int                                    `json:"version"`
	Projects map[string]map[string]mcpApprovalEntry `json:"projects"` // project key -> server name
}

// mcpApprovalEntry is one approved server of a project.
type mcpApprovalEntry struct {
	SHA256     string    `json:"sha256"`  // ServerConfig.Fingerprint when approved
	Command    string    `json:"command"` // what was approved, for a person reading the file
	ApprovedAt time.Time `json:"approved_at"`
}

// readMCPApprovals reads the record at path ("" or missing: none).
func readMCPApprovals(path string) (mcpApprovalRecord, error) {
	if path == "" {
		return parseMCPApprovals(path, nil)
	}
	data, err := smallfile.Read(path, maxMCPApprovalFile)
	if errors.Is(err, fs.ErrNotExist) {
		data, err = nil, nil
	}
	if err != nil {
		rec, _ := parseMCPApprovals(path, nil)
		return rec, &config.FileError{Path: path, Err: err}
	}
	return parseMCPApprovals(path, data)
}

// parseMCPApprovals decodes the record read from path (nil: none yet).
func parseMCPApprovals(path string, data []byte) (mcpApprovalRecord, error) {
	rec := mcpApprovalRecord{Version: 1, Projects: map[string]map[string]mcpApprovalEntry{}}
	if data == nil {
		return rec, nil
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return mcpApprovalRecord{Version: 1, Projects: map[string]map[string]mcpApprovalEntry{}}, config.JSONError(path, data, err)
	}
	if rec.Projects == nil {
		rec.Projects = map[string]map[string]mcpApprovalEntry{}
	}
	return rec, nil
}

// approvedFingerprints returns the fingerprint approved for each server of the
// project at root.
func (r mcpApprovalRecord) approvedFingerprints(root string) map[string]string {
	out := map[string]string{}
	for name, e := range r.Projects[projectKey(root)] {
		out[name] = e.SHA256
	}
	return out
}

// mcpApproval decides whether a project server named name, whose entry has
// fingerprint fp, may start: refused by name in the user's
// disabledMcpjsonServers (disabled), else approved when the record holds this
// very fingerprint for it, or the user's enableAllProjectMcpServers or
// enabledMcpjsonServers (Claude Code's, by name) say so. A server of any other
// scope is the person's own and always approved.
func mcpApproval(scope mcp.Scope, name, fp string, recorded map[string]string, claude config.MCPJSONApprovals) (approved, disabled bool) {
	if scope != mcp.ScopeProject {
		return true, false
	}
	if slices.Contains(claude.Disabled, name) {
		return false, true
	}
	if got, ok := recorded[name]; ok && fp != "" && got == fp {
		return true, false
	}
	return claude.All || slices.Contains(claude.Enabled, name), false
}

// ApproveMCPServer records that the project server s (a ScopeProject entry of
// root's .mcp.json, as the person was shown it) may start in root while its
// entry keeps s.Fingerprint: one config.Edit of the record (its lock held
// across processes, mode 0600). Only a person's act calls it: `pincer mcp
// approve` or the /mcp view's key.
func ApproveMCPServer(root string, s mcp.ServerConfig) error {
	if s.Scope != mcp.ScopeProject {
		return fmt.Errorf("MCP server %s is not a project server (%s): it needs no approval", s.Name, s.Scope)
	}
	if s.Broken != "" {
		return fmt.Errorf("MCP server %s cannot be approved: %s", s.Name, s.Broken)
	}
	if s.Fingerprint == "" {
		return fmt.Errorf("MCP server %s: no fingerprint to approve", s.Name)
	}
	p := config.PathsFrom(os.Getenv)
	if p.DataErr != nil {
		return p.DataErr
	}
	return config.Edit(p.MCPApprovals, 0o600, func(old []byte) ([]byte, error) {
		rec, err := parseMCPApprovals(p.MCPApprovals, old)
		if err != nil {
			return nil, err // a record that does not parse is not overwritten blindly
		}
		rec.Version = 1
		key := projectKey(root)
		if rec.Projects[key] == nil {
			rec.Projects[key] = map[string]mcpApprovalEntry{}
		}
		rec.Projects[key][s.Name] = mcpApprovalEntry{SHA256: s.Fingerprint, Command: MCPServerCommand(s),
			ApprovedAt: time.Now().UTC().Truncate(time.Second)}
		data, err := json.MarshalIndent(rec, "", "  ")
		if err != nil {
			return nil, err
		}
		return append(data, '\n'), nil
	})
}
