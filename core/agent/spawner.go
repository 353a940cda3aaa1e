package agent

import (
	"context"

	"pincer/core/permission"
	"pincer/persist"
	"pincer/tools"
)

// DefaultSubagentIterations is a subagent's budget of model calls when its
// definition sets no maxTurns (as the seed's sub-agent loop).
const DefaultSubagentIterations = 15

// SpawnRequest is what an Agent tool call (or a team's start) asks the
// composition root to build: a child of session ParentSessionID, started by
// its tool call ToolCallID, running as AgentType ("" is general-purpose).
type SpawnRequest struct {
	ParentSessionID string
	ToolCallID      string
	AgentType       string
	Description     string
	// Isolation is "" (the parent's workspace) or "worktree" (a new git
	// worktree on a new branch).
	Isolation  string
	Background bool
	// ParentMode is the permission mode in force in the parent when the call
	// was made: the child runs in it, or in its definition's mode when that is
	// stricter (never a looser one).
	ParentMode permission.Mode
	// Model is the call's model parameter as written ("", "inherit", an
	// alias, a model ID); ParentModel the model ID the parent runs on.
	Model, ParentModel string
	// Team and Member name a team member's place (TeamCreate); "" otherwise.
	Team, Member string
	// ExtraTools join the child's tool set after the definition's rule (a
	// team member's SendMessage); Agent and Task never do.
	ExtraTools []tools.Tool
}

// Spawned is a child the Spawner built: its agent (tools, prompt, mode,
// budget, workspace), its session, already stored with ParentID,
// ParentToolCallID and AgentType set, and for a worktree run the worktree's
// path and branch.
type Spawned struct {
	Agent    *Agent
	Session  persist.Session
	Worktree string
	Branch   string
	// Model is the model ID the child's model calls send ("": the parent's).
	Model string
	// Notes are warnings about what the definition asked for and did not get
	// (a looser mode, a tool the parent lacks, a model alias): notices in the
	// parent's log.
	Notes []string
	// Finish, when set, is called once the child's run ended: a worktree
	// run's `git diff --stat` against its base ("" when nothing changed).
	Finish func(ctx context.Context) (diffStat string, err error)
}

// Spawner builds subagents; the composition root implements it (core/app's
// subagents.go, with Run.DeriveAgent and the agent definitions). An agent
// with a Spawner offers the Agent tool; the agents it builds have none (no
// nesting).
type Spawner interface {
	// Spawn builds the child for req and stores its session. An unknown type,
	// a definition that cannot load or a worktree that cannot be made is an
	// error the model reads as the tool result.
	Spawn(ctx context.Context, req SpawnRequest) (*Spawned, error)
	// Listing is the text of the agent types the model may choose from
	// (name, description, tools), appended to the Agent tool's description.
	Listing() string
	// ReadOnly reports whether agentType's tools only read (Explore, Plan):
	// such calls run in parallel with the other concurrency-safe calls of a
	// response, as Claude Code runs several Task calls at once.
	ReadOnly(agentType string) bool
}
