package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"pincer/core/agent"
	"pincer/core/config/modelflow"
	"pincer/core/event"
	"pincer/core/mcp"
	"pincer/core/memory"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/persist"
	"pincer/sandbox"
)

// Backend is what a front end (the workbench, later a web panel) asks of core,
// built from explicit dependencies: the agent that runs turns, the store it
// keeps sessions in, the approval queue the agent asks through, and what the
// composition root supplies as functions. Each method is one operation of the
// front end; none reads the front end's state. Its methods are safe for
// concurrent use as far as the agent and the store are.
//
// The log (Log) is the only feed of the front end's views: every change a
// method makes that a view shows — a turn, an approval, a mode or model
// change — reaches it as events of the session, so a replay shows it too.
type Backend struct {
	// Agent runs the turns; its Approver must be Approvals.
	Agent *agent.Agent
	// Store is the agent's store (sessions list, delete, leases).
	Store persist.Store
	// Approvals is the queue the agent's Approver asks through and Resolve
	// answers.
	Approvals *ApprovalQueue
	// ModelEnv loads the configuration and opens the secret store for one /model
	// command (a fresh Env per command, so each one sees what the previous
	// saved); the warnings are shown. nil: /model commands are refused with
	// ErrNoModelConfig.
	ModelEnv func() (*modelflow.Env, []error)
	// ListModels fetches a provider's models (GET /models) for /model refresh;
	// nil: no refresh.
	ListModels modelflow.Lister
	// ResolveModel turns the model ID /model switch chose ("openai/gpt-4.1")
	// into what the agent needs of it; nil: CatalogModel.
	ResolveModel func(env *modelflow.Env, id string) agent.ModelChoice
	// SessionModel resolves the model a resumed session ran on (PROVIDER/MODEL)
	// into a provider for it, as the composition root resolves a run's model
	// (SessionModelResolver); nil: resuming never changes the model.
	SessionModel func(id string) (provider.Provider, agent.ModelChoice, error)
	// MCP is the Run's MCP servers (backend_mcp.go); nil: none.
	MCP *mcp.Manager
	// Invoke makes a sent line "/NAME args" that names a skill, a custom
	// command or an MCP prompt into its turn's input (Setup.Invocation); nil:
	// every line is sent as typed.
	Invoke func(line string) (agent.TurnInput, bool)
	// ListCommands lists what Invoke knows (Setup.Commands); nil: none.
	ListCommands func() []Command
	// RescanCommands discovers the skills and commands again
	// (Setup.RescanSkills) before NewSession makes a session, returning what
	// it passed over; nil: the catalog is as at start.
	RescanCommands func() []string
	// PluginList are the run's enabled plugins (PluginSummaries of
	// Setup.Plugins), for /help.
	PluginList []PluginSummary
	// AgentList are the run's agent definitions (AgentInfos of Setup.Agents),
	// for /agents.
	AgentList []AgentInfo
	// Repo is a directory of the repository the run works in (its workspace
	// root: the main checkout or one of its worktrees), for /worktrees
	// (backend_worktrees.go); "": none listed.
	Repo string
	// OpenWorktree opens (or creates) git worktree name for a tab's session
	// and builds the agent confined to it (backend_tabs.go); nil: OpenSession
	// refuses worktrees.
	OpenWorktree func(ctx context.Context, name string) (TabWorktree, error)
	// CommitWorktree commits the work of the worktree the Backend's own agent
	// works in (`pincer --worktree NAME`: Run.WorktreeCommit) on its branch;
	// commitTurn calls it after each turn of a session of that agent, as a
	// worktree tab's Commit after each of its turns. nil: not in a worktree.
	CommitWorktree func(ctx context.Context, message string) error
	// Memory proposes, decides and writes the memory and skill candidates of
	// the run's project (backend_memory.go); nil: those methods return
	// ErrNoMemory.
	Memory *memory.Manager
	// MCPWarnings are the MCP configuration's problems (Setup.MCPWarnings),
	// for the workbench's /mcp.
	MCPWarnings []string
	// mcpFileAtStart is the project's .mcp.json as the Setup read it.
	mcpFileAtStart fileStamp
	// Sandbox is the run's OS sandbox policy (Setup.Sandbox), for /status;
	// nil: commands run without it.
	Sandbox *sandbox.Policy

	routes sessionAgents // the sessions other agents run (backend_tabs.go)
}

// Commands lists the skills, custom commands and MCP prompts a person can
// run as /NAME, for completion and /help.
func (b *Backend) Commands() []Command {
	if b.ListCommands == nil {
		return nil
	}
	return b.ListCommands()
}

// Session is a stored session as the sessions browser lists it.
type Session struct {
	ID, Title, Cwd, Model string
	// CreatedAt is when it was made and UpdatedAt the time of its last
	// change, UTC.
	CreatedAt, UpdatedAt time.Time
	// Status is the state after its last turn (SessionStatus): idle, running
	// (a live process holds its lease now), failed, cancelled, or interrupted
	// (its record says running but no live process holds it).
	Status string
	// ParentID is the session a subagent's child session belongs to ("" for
	// a top-level one) and AgentType its subagent type.
	ParentID, AgentType string
	// BranchOf is the session a conversation rewind branched this one from
	// ("" for none) and BranchTurn the turn (from 1) it was rewound to
	// before: the branch holds that session's turns before it.
	BranchOf   string
	BranchTurn int
}

// Log returns the event log of every session: read from a cursor (Read),
// follow live (Follow).
func (b *Backend) Log() *event.Log { return b.Agent.Log() }

// LastSequence returns the sequence of a session's last stored event (0: none):
// where a replay that starts now ends.
func (b *Backend) LastSequence(ctx context.Context, sessionID string) (uint64, error) {
	return b.Store.LastEventSequence(ctx, sessionID)
}

// Submit runs one turn of input on a session (agent.SubmitTurn; a /NAME line
// Invoke knows: agent.SubmitTurnInput): it blocks until the turn ends;
// cancelling ctx cancels the turn. While it runs, answers
// given in a workbench attached from another process reach the approval
// queue through the store (backend_attach.go).
func (b *Backend) Submit(ctx context.Context, sessionID, input string) (agent.TurnResult, error) {
	after, err := b.Store.LastEventSequence(ctx, sessionID)
	if err == nil {
		defer b.followAnswers(ctx, sessionID, after)()
	}
	defer b.commitTurn(ctx, sessionID) // a worktree tab's turn: its branch gets the work (backend_tabs.go)
	if b.Invoke != nil {
		if in, ok := b.Invoke(input); ok {
			return b.agentFor(sessionID).SubmitTurnInput(ctx, sessionID, in)
		}
	}
	return b.agentFor(sessionID).SubmitTurn(ctx, sessionID, input)
}

// Resolve answers a pending permission request: behavior allow or deny, scope
// once, session or always, and a reason that reaches the model on a denial.
// An answer that comes before the agent waits for it is kept for it; an answer
// to a request no longer waiting is dropped. The error is agent.ErrNoSuchRequest
// when nobody waits for the request yet (or any more).
func (b *Backend) Resolve(requestID string, behavior permission.Behavior, scope permission.Scope, reason string) error {
	return b.Agent.Resolve(requestID, behavior, scope, reason)
}

// Mode returns the permission mode in force.
func (b *Backend) Mode() permission.Mode { return b.Agent.Mode() }

// SetMode changes the permission mode at once and records it on sessionID as a
// mode.changed event (agent.SetMode, on the agent that runs sessionID); the
// agents of the other tabs' sessions (backend_tabs.go) get it too: the
// workbench shows one mode.
func (b *Backend) SetMode(ctx context.Context, sessionID string, m permission.Mode) error {
	own := b.agentFor(sessionID)
	for _, a := range b.allAgents() {
		if a != own {
			a.SetPermissionMode(m)
		}
	}
	return own.SetMode(ctx, sessionID, m)
}

// NewSession starts another session in the workspace (/clear): it creates it,
// runs the SessionEnd hooks of previous and the SessionStart hooks of the new
// one (both with reason "clear"), and returns its ID. A previous session of
// a worktree tab (backend_tabs.go) is followed by one in the same worktree,
// on the same agent. What RescanCommands passes over that was not said
// before (a command file added since, shadowed by a built-in) is a notice
// (warning, source "skills") on the new session.
func (b *Backend) NewSession(ctx context.Context, previous string) (string, error) {
	var warns []string
	if b.RescanCommands != nil {
		warns = b.RescanCommands() // only problems not said before
	}
	ag := b.agentFor(previous)
	s, err := ag.CreateSession(ctx)
	if err != nil {
		return "", err
	}
	for _, w := range warns {
		_, _ = ag.Log().Emit(ctx, event.Notice, s.ID, "", event.NoticeData{Level: "warning", Source: "skills", Message: w})
	}
	if err := b.inheritRoute(ctx, previous, s); err != nil {
		return "", err
	}
	ag.EndSession(ctx, previous, "clear")
	ag.StartSession(ctx, s.ID, "clear")
	return s.ID, nil
}

// Resume makes to the session turns go to instead of from: the SessionEnd
// hooks of from (reason "other") and the SessionStart hooks of to ("resume").
// Resuming the same session runs no hooks.
func (b *Backend) Resume(ctx context.Context, from, to string) {
	if from == to {
		return
	}
	b.Agent.EndSession(ctx, from, "other")
	b.followModel(ctx, to)
	b.Agent.StartSession(ctx, to, "resume")
}

// followModel makes the agent run on the model session id ran on, as `pincer
// --continue` does at start: one model rule however a session is resumed. A model
// that does not resolve now leaves the agent's model, and says so in the session's
// log (a warning notice), as the start-up fallback warns.
func (b *Backend) followModel(ctx context.Context, id string) {
	s, err := b.Store.GetSession(ctx, id)
	if err != nil || s.Model == "" || s.Model == b.Agent.ModelName() || b.SessionModel == nil {
		return
	}
	p, c, err := b.SessionModel(s.Model)
	if err == nil {
		err = b.Agent.UseModel(p, c)
	}
	if err != nil {
		msg := fmt.Sprintf("this session ran on %s, which cannot be used now (%v): its turns here run on %s", s.Model, err, b.Agent.ModelName())
		_, _ = b.Agent.Log().Emit(ctx, event.Notice, id, "", event.NoticeData{Level: "warning", Source: "model", Message: msg})
	}
}

// Sessions lists up to limit stored sessions, most recently updated first
// (limit <= 0: all).
func (b *Backend) Sessions(ctx context.Context, limit int) ([]Session, error) {
	list, err := b.Store.ListSessions(ctx, limit)
	out := make([]Session, len(list))
	for i, s := range list {
		out[i] = sessionOf(s, b.sessionStatus(ctx, s))
	}
	return out, err
}

// sessionOf is the Session of a record with its status.
func sessionOf(s persist.Session, status string) Session {
	return Session{ID: s.ID, Title: s.Title, Cwd: s.Cwd, Model: s.Model, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt,
		Status: status, ParentID: s.ParentID, AgentType: s.AgentType, BranchOf: s.BranchOf, BranchTurn: s.BranchTurn}
}

// InUseError is DeleteSession's refusal of a session whose lease another
// process holds.
type InUseError struct{ Owner string }

func (e *InUseError) Error() string { return "in use by another process (" + e.Owner + ")" }

// deleteLease is how long DeleteSession holds the lease it takes.
const deleteLease = 10 * time.Second

// DeleteSession deletes everything stored under a session. It first takes the
// session's lease, so a session another process is using is refused with an
// *InUseError and nothing is deleted.
func (b *Backend) DeleteSession(ctx context.Context, id string) error {
	owner := fmt.Sprintf("pid:%d/browser-%d", os.Getpid(), time.Now().UnixNano())
	ok, holder, err := b.Store.AcquireLease(ctx, id, owner, deleteLease)
	switch {
	case err != nil:
		return err
	case !ok:
		return &InUseError{Owner: holder.Owner}
	}
	if err := b.Store.DeleteSession(ctx, id); err != nil {
		return errors.Join(err, b.Store.ReleaseLease(ctx, id, owner))
	}
	return nil
}
