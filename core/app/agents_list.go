package app

import (
	"os"

	"pincer/core/config"
	"pincer/core/subagent"
)

// AgentInfo is one agent definition as `/agents` and `pincer agents list`
// show it (the Agent tool's subagent_type): its tools as the model's listing
// writes them (subagent.ToolsText) and its fields as written.
type AgentInfo struct {
	Name           string `json:"name"`
	Origin         string `json:"origin"` // "built-in", "project", "user", "plugin:NAME"
	Description    string `json:"description"`
	Tools          string `json:"tools"`                    // "All tools", "Read, Grep", "All tools except Write", "none"
	Model          string `json:"model,omitempty"`          // "" inherits
	PermissionMode string `json:"permissionMode,omitempty"` // applied only when stricter than the parent's
	MaxTurns       int    `json:"maxTurns,omitempty"`       // 0: the default budget
	Isolation      string `json:"isolation,omitempty"`      // "worktree"
	ReadOnly       bool   `json:"readOnly,omitempty"`       // plan mode: changes nothing
	Path           string `json:"path,omitempty"`           // "" for a built-in
}

// AgentInfos lists c's definitions in precedence order (built-in, project,
// user, plugin).
func AgentInfos(c *subagent.Catalog) []AgentInfo {
	var out []AgentInfo
	for _, d := range c.Definitions() {
		out = append(out, AgentInfo{Name: d.Name, Origin: string(d.Origin), Description: d.Description,
			Tools: subagent.ToolsText(d), Model: d.Model, PermissionMode: string(d.PermissionMode),
			MaxTurns: d.MaxTurns, Isolation: d.Isolation, ReadOnly: d.ReadOnly(), Path: d.Path})
	}
	return out
}

// ListAgents is `pincer agents list`: the definitions a session started in
// this directory would have (the enabled plugins' included, as Prepare
// discovers them), and the warnings: files that do not parse (FILE:LINE),
// names passed over, plugin problems.
func ListAgents() ([]AgentInfo, []string, error) {
	ws, err := WorkspaceHere()
	if err != nil {
		return nil, nil, err
	}
	paths := config.PathsFrom(os.Getenv)
	s := &Setup{Workspace: ws}
	var report configReport
	s.loadPlugins(paths, ws.Root(), &report)
	s.loadAgents()
	warnings := append(append([]string(nil), report.warnings...), s.Warnings...)
	warnings = append(warnings, report.fatal...) // a plugin that does not load: it contributes no agents
	return AgentInfos(s.Agents), dedupe(warnings), nil
}

// Agents lists the run's agent definitions (Backend.AgentList), for /agents.
func (b *Backend) Agents() []AgentInfo { return b.AgentList }
