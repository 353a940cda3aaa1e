package app

import (
	"context"
	"fmt"
	"strings"

	"pincer/core/agent"
	"pincer/core/prompt"
	"pincer/core/subagent"
	"pincer/core/worktree"
	"pincer/persist"
	"pincer/sandbox"
	"pincer/tools"
)

// subagentOwner names a subagent's turns in their lease owner.
const subagentOwner = "pincer subagent"

// diffStatLines is how many files a worktree subagent's result lists.
const diffStatLines = 20

// spawner builds the Run's subagents (agent.Spawner): the definition of the
// call's type from Setup.Agents (core/subagent), its tool set taken from the
// parent's registry by subagent.ToolSet (never Agent or the team tools, never
// a tool the parent lacks), its mode by subagent.EffectiveMode (only ever
// tighter than the parent's mode in force), its model by ResolveModel, a
// worktree on a new branch for isolation "worktree" — then Run.DeriveAgent
// (the same store, log, provider, rules, hooks, sandbox policy and approval
// queue) and a child session linked to its parent. ws and registry are the
// parent agent's (the Run's, or a derived agent's that offers Agent).
type spawner struct {
	run      func() *Run // set once the Run exists (the agent is built first)
	ws       *sandbox.Workspace
	registry *tools.Registry
}

var _ agent.Spawner = (*spawner)(nil)

// Listing implements agent.Spawner: the catalog's listing.
func (s *spawner) Listing() string { return s.run().Agents.Listing() }

// ReadOnly implements agent.Spawner: a definition in plan mode.
func (s *spawner) ReadOnly(agentType string) bool {
	d, ok := s.run().Agents.Lookup(agentType)
	return ok && d.ReadOnly()
}

// Spawn implements agent.Spawner.
func (s *spawner) Spawn(ctx context.Context, req agent.SpawnRequest) (*agent.Spawned, error) {
	r := s.run()
	def, ok := r.Agents.Lookup(req.AgentType)
	if !ok {
		return nil, fmt.Errorf("unknown subagent_type %q; the types are: %s", req.AgentType, strings.Join(typeNames(r.Agents), ", "))
	}
	names, notes := subagent.ToolSet(s.registry.Names(), def)
	var ts []tools.Tool
	for _, n := range names {
		if t, ok := s.registry.Get(n); ok && !subagent.NeverSubagent(n) {
			ts = append(ts, t)
		}
	}
	for _, t := range req.ExtraTools {
		if n := t.Spec().Name; n != agent.AgentToolName && n != agent.TaskToolName {
			ts = append(ts, t)
		}
	}
	childTools := tools.NewRegistry(ts...)
	mode, warn := subagent.EffectiveMode(req.ParentMode, def.PermissionMode)
	if warn != "" {
		notes = append(notes, warn)
	}
	want := req.Model
	if want == "" {
		want = def.Model
	}
	model, note := subagent.ResolveModel(want, req.ParentModel)
	if note != "" {
		notes = append(notes, note)
	}
	iters := childIterations(def.MaxTurns, r.Agent.MaxIterations())
	ws := s.ws
	var wt *worktree.Worktree
	if req.Isolation == subagent.IsolationWorktree || def.Isolation == subagent.IsolationWorktree {
		w, wws, err := r.NewWorktree(ctx, "agent-"+worktreeName(def.Name))
		if err != nil {
			return nil, fmt.Errorf("isolation worktree: %w", err)
		}
		wt, ws = &w, wws
	}
	ag, err := r.DeriveAgent(AgentSpec{
		Workspace: ws, Tools: childTools, SystemPrompt: childPrompt(def),
		Mode: mode, MaxIterations: iters, OwnerCommand: subagentOwner,
	})
	if err != nil {
		return nil, err
	}
	link := sessionLink(req, def)
	if wt != nil {
		link.Worktree, link.Branch = wt.Path, wt.Branch
	}
	sess, err := ag.CreateLinkedSession(ctx, link)
	if err != nil {
		return nil, err
	}
	sp := &agent.Spawned{Agent: ag, Session: sess, Model: model, Notes: notes}
	if wt != nil {
		w := *wt
		sp.Worktree, sp.Branch = w.Path, w.Branch
		sp.Finish = func(ctx context.Context) (string, error) { return finishWorktree(ctx, w, sess.ID, req.Description) }
	}
	return sp, nil
}

// childIterations is a subagent's budget of model calls: its definition's
// maxTurns (agent.DefaultSubagentIterations when unset), never more than the
// Run's own per turn (`--max-turns`): a definition may lower the budget, not
// raise it past the run's.
func childIterations(defMaxTurns, runMax int) int {
	n := defMaxTurns
	if n <= 0 {
		n = agent.DefaultSubagentIterations
	}
	if runMax > 0 && n > runMax {
		n = runMax
	}
	return n
}

// finishWorktree commits a worktree subagent's work on its branch (so the
// branch has the edit) and returns the diff stat against its base.
func finishWorktree(ctx context.Context, w worktree.Worktree, sessionID, description string) (string, error) {
	if _, _, err := worktree.Commit(ctx, w, fmt.Sprintf("pincer subagent %s: %s", sessionID, description)); err != nil {
		return "", err
	}
	st, err := worktree.DiffStat(ctx, w)
	if err != nil {
		return "", err
	}
	return st.Lines(diffStatLines), nil
}

// childPrompt is a subagent's system prompt: its definition's body (Claude
// Code's agent file), then the dynamic marker — the agent fills pincer's
// dynamic segments in (environment, git status, the project instructions,
// for the child's workspace and tools: DeriveAgent's DynamicPrompt) at each
// model call, so they are not computed here (they were 40% of a spawn).
func childPrompt(def subagent.Definition) string {
	return strings.TrimSpace(def.Prompt) + "\n\n" + prompt.DynamicMarker + "\n"
}

// typeNames lists the catalog's agent types.
func typeNames(c *subagent.Catalog) []string {
	var out []string
	for _, d := range c.Definitions() {
		out = append(out, d.Name)
	}
	return out
}

// worktreeName makes a definition's name a worktree name's tail ("PLUGIN:x"
// -> "PLUGIN-x", lower case).
func worktreeName(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	if b.Len() == 0 || b.Len() > 40 {
		return "agent"
	}
	return b.String()
}

// sessionLink is the link fields of a subagent's child session: its parent
// session and tool call, its type as the catalog names it.
func sessionLink(req agent.SpawnRequest, def subagent.Definition) persist.Session {
	return persist.Session{ParentID: req.ParentSessionID, ParentToolCallID: req.ToolCallID, AgentType: def.Name}
}
