package tui

import (
	"context"

	"pincer/core/agent"
	"pincer/core/app"
	"pincer/core/event"
	"pincer/core/mcp"
	"pincer/core/permission"
)

// Backend is everything the workbench asks of core; *app.Backend implements
// it. The workbench reads every session only through Log (replayed from
// sequence 1, then followed) and changes things only through these methods,
// each of which shows on the screen as the events it appends. Methods that
// block (Submit, NewSession, Sessions, DeleteSession, ...) are called off the
// event loop; Mode, Resolve, SetMode and ModelCommand return at once or after
// one event append.
type Backend interface {
	// Log is the event log of every session.
	Log() *event.Log
	// LastSequence is the sequence of a session's last stored event (0: none).
	LastSequence(ctx context.Context, sessionID string) (uint64, error)
	// Submit runs one turn on a session until it ends; cancelling ctx cancels it.
	Submit(ctx context.Context, sessionID, input string) (agent.TurnResult, error)
	// Resolve answers a pending permission request.
	Resolve(requestID string, behavior permission.Behavior, scope permission.Scope, reason string) error
	// Mode is the permission mode in force.
	Mode() permission.Mode
	// SetMode changes the permission mode and records it on the session.
	SetMode(ctx context.Context, sessionID string, m permission.Mode) error
	// NewSession starts another session (/clear) after previous and returns its ID.
	NewSession(ctx context.Context, previous string) (string, error)
	// OpenSession starts a session for a new tab and returns its ID: in the
	// workspace (worktree ""), or in a new git worktree named worktree (the
	// first free of NAME, NAME-2, …) on its own branch, whose turns run on an
	// agent confined to it (app.Run.DeriveAgent) and whose work is committed
	// on the branch after each turn. Submit and the other per-session methods
	// route that session to its agent.
	OpenSession(ctx context.Context, worktree string) (string, error)
	// Resume makes to the session turns go to instead of from (its hooks).
	Resume(ctx context.Context, from, to string)
	// EndSession runs a session's SessionEnd hooks with reason ("other": a
	// closed tab; "exit": the workbench quits), on the agent that runs it.
	EndSession(ctx context.Context, sessionID, reason string)
	// Sessions lists up to limit sessions, newest first (limit <= 0: all).
	Sessions(ctx context.Context, limit int) ([]app.Session, error)
	// DeleteSession deletes a session nobody else uses (*app.InUseError).
	DeleteSession(ctx context.Context, id string) error
	// Runner says which other process runs a session now ("" when none:
	// free, this process's, or a dead process's).
	Runner(ctx context.Context, sessionID string) (string, error)
	// AnswerRemote answers a pending request of a session another process
	// runs, through the store (app.ErrNotRunElsewhere when none does).
	AnswerRemote(ctx context.Context, sessionID, requestID string, behavior permission.Behavior, scope permission.Scope, reason string) error
	// ModelCommand checks a /model command of a session (app.ErrNoModelConfig,
	// *app.ModelUsageError) and returns it ready to run.
	ModelCommand(sessionID string, args []string) (*app.ModelCommand, error)

	// PromptHistory returns up to limit prompts typed in project (the
	// workspace root), newest first.
	PromptHistory(ctx context.Context, project string, limit int) ([]string, error)
	// AddPrompt keeps a sent prompt of project for recall.
	AddPrompt(ctx context.Context, project, text string) error
	// Draft returns project's unsent draft ("" when none).
	Draft(ctx context.Context, project string) (string, error)
	// SaveDraft keeps text as project's unsent draft ("" deletes it).
	SaveDraft(ctx context.Context, project, text string) error

	// MCPServers is every configured MCP server's state, by name (none: nil).
	MCPServers() []mcp.ServerState
	// SubscribeMCP calls fn, from any goroutine, with a server's state after
	// each change, until cancel.
	SubscribeMCP(fn func(mcp.ServerState)) (cancel func())
	// ApproveMCP records the person's approval of the project server cfg (as
	// the /mcp view showed it) and starts it.
	ApproveMCP(cfg mcp.ServerConfig) error
	// Commands lists the skills, custom commands, plugin commands and MCP
	// prompts a sent "/NAME args" runs (Submit expands it), for completion
	// and /help.
	Commands() []app.Command
	// CancelSubagent cancels a running subagent's child session in this
	// process (the timeline's subagent.cancel); agent.ErrNoSuchChild when
	// none runs here.
	CancelSubagent(childSessionID string) error
	// EstimateContext is /context: the tokens the session's next model call
	// would send (estimated, no model call), the window, the messages.
	EstimateContext(ctx context.Context, sessionID string) (agent.ContextUse, error)
	// SessionDiff is the unified diff of what the session's tool calls in
	// span changed in its workspace, Bash included (app.SessionDiffOf, the
	// one behind `pincer sessions diff`): a turn's, a call's, or from the
	// start to a checkpoint (time travel, timetravel.go).
	SessionDiff(ctx context.Context, sessionID string, span app.DiffSpan) (string, error)
}

var _ Backend = (*app.Backend)(nil)
