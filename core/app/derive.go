package app

import (
	"errors"
	"os"

	"pincer/core/agent"
	"pincer/core/permission"
	"pincer/sandbox"
	"pincer/tools"
)

// AgentSpec says how an agent derived from a Run (DeriveAgent) differs from
// the Run's own: a subagent's tool set, system prompt, budget and model, a
// session in a git worktree. Zero fields keep the Run's.
type AgentSpec struct {
	// Workspace is where the agent's tools work (a worktree's); nil: the Run's.
	Workspace *sandbox.Workspace
	// Tools is the agent's registry (a subagent's subset); nil: the Run's.
	Tools *tools.Registry
	// SystemPrompt is written on the agent's sessions' first turn; "": the
	// Run's prompt built for Workspace and Tools when that turn starts.
	SystemPrompt string
	// Mode is the permission mode; "": the mode the Run's agent has now.
	Mode permission.Mode
	// MaxIterations is the model calls per turn; 0: the Run's.
	MaxIterations int
	// OwnerCommand names the agent in its leases ("pincer subagent"); "":
	// the Run's.
	OwnerCommand string
	// Subagents makes the agent offer the Agent tool, its children built
	// from its own Workspace and Tools (a session in a worktree: a tab).
	// A subagent's agent has it false: subagents never nest.
	Subagents bool
}

// DeriveAgent builds another agent of the Run from the same composition: the
// same store and event log, provider and model, rules, hooks, sandbox
// policy (confining spec's Workspace), redactor, approval queue and MCP
// servers — with spec's differences. Subagents (core/agent's Agent tool) and
// sessions in their own worktree are built so; no front end builds an agent
// itself. It fails when the Run has no agent.
func (r *Run) DeriveAgent(spec AgentSpec) (*agent.Agent, error) {
	if r == nil || r.Agent == nil {
		return nil, errors.New("derive agent: the run has no agent")
	}
	s := r.Setup
	ws, registry := s.Workspace, s.Tools
	if spec.Workspace != nil {
		ws = spec.Workspace
	}
	if spec.Tools != nil {
		registry = spec.Tools
	}
	prompt := spec.SystemPrompt
	var newPrompt func() string
	if prompt == "" { // built when a session's first turn starts, as the Run's agent's
		newPrompt = func() string { return buildSystemPrompt(ws, registry, s.Model.ID(), s.promptSegments()...) }
	}
	mode := spec.Mode
	if mode == "" {
		mode = r.Agent.Mode()
	}
	iters := spec.MaxIterations
	if iters == 0 {
		iters = s.Options.MaxIterations
	}
	owner := spec.OwnerCommand
	if owner == "" {
		owner = s.Options.Command
	}
	var spawn agent.Spawner
	if spec.Subagents && s.Agents != nil {
		spawn = &spawner{run: func() *Run { return r }, ws: ws, registry: registry}
	}
	mc, m := s.Model, r.MCP
	home, _ := os.UserHomeDir()
	ag, err := agent.New(agent.Config{
		Store: r.Store, Log: r.Agent.Log(), Provider: s.Provider, Model: mc.Model, ModelName: mc.ID(),
		Tools: registry, Workspace: ws, Sandbox: s.Sandbox, TrustedCode: s.TrustedCode,
		Rules: s.Rules, Hooks: s.Hooks, Home: home, SpillRoot: toolResultsDir(), Redactor: sessionRedactor(mc),
		DynamicPrompt:  func() string { return dynamicPrompt(ws, registry, mc.ID(), mcpSegments(m)...) },
		Instructions:   func() string { return instructionsText(ws) },
		PermissionMode: mode, MaxIterations: iters,
		SystemPrompt: prompt, NewSessionPrompt: newPrompt, Approver: r.approver, OwnerCommand: owner,
		ToolSearch: s.ToolSearch, Spawner: spawn, Teams: s.Teams, Subagents: r.Agent.Subagents(),
		ShellQuota: r.Agent.ShellQuota(), Protocols: s.Protocols, Classifier: s.Classifier,
		Checkpoints: checkpointRecorder(r.Store, ws, s.Checkpoints, sessionRedactor(mc)),
		// a worktree tab's turns may teach a skill too (a subagent's never: its session has a parent)
		Observers: s.observers(func() *Run { return r }),
	})
	if err != nil {
		return nil, err
	}
	if window, cost, ok := ModelInfo(mc); ok {
		ag.SetModelInfo(window, cost)
	}
	r.derived.add(ag)
	return ag, nil
}
