// Package agent runs sessions: the query loop (SubmitTurn), the session lease, tool
// calls and the provider view of the transcript. It behaves as mx-claw's query loop:
//
//   - Preconditions before a turn, each a clear error: a provider is configured, the
//     session has no active turn in this process, the session lease is acquired.
//   - The first turn of a session writes the system message; the user message is
//     stored before the model is called.
//   - At most MaxIterations model calls per turn; running out ends the turn with
//     turn.failed reason max_iterations.
//   - Every tool call gets exactly one tool result (invariant 2); failures reach the
//     model as "Tool failed: <reason>".
//   - Every step appends an event to the session log; front ends read only the log.
//   - The lease is renewed every TTL/3; losing it cancels the turn.
package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"pincer/core/checkpoint"
	"pincer/core/event"
	"pincer/core/hook"
	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/persist"
	"pincer/sandbox"
	"pincer/tools"
)

// Defaults for Config fields left zero.
const (
	DefaultMaxIterations = 50
	DefaultLeaseTTL      = 30 * time.Second
	DefaultDeltaInterval = 33 * time.Millisecond // ≤ ~30 message.delta events per second
)

// ErrNoProvider is returned by SubmitTurn when no provider is configured.
var ErrNoProvider = errors.New("no model provider is configured: pass --model PROVIDER/MODEL and set PINCER_API_KEY or OPENAI_API_KEY")

// ErrTurnActive is returned when the session already runs a turn in this process.
var ErrTurnActive = errors.New("session already has an active turn")

// ErrLeaseHeld is returned when another process holds the session lease.
var ErrLeaseHeld = errors.New("session lease is held by another process")

// Approval is a person's answer to a permission request. Scope is
// permission.ScopeOnce, ScopeSession (remember for this session) or ScopeAlways
// (save a rule to the project's .pincer/settings.local.toml), as Claude Code's
// approval prompt offers; "" is once.
type Approval struct {
	Decision permission.Decision
	Scope    permission.Scope
}

// Approver asks a person about a tool call the policy could not decide alone. It
// blocks until a decision or ctx ends. A nil Approver (headless) denies every ask,
// telling the model which flag would allow it.
type Approver interface {
	Approve(ctx context.Context, sessionID, requestID string, in permission.Input, d permission.Decision) Approval
}

// Config builds an Agent. Store, Provider, Tools and Workspace are required (a nil
// Provider is allowed and makes SubmitTurn fail with ErrNoProvider).
type Config struct {
	Store    persist.Store
	Log      *event.Log // optional: one over Store is made when nil
	Provider provider.Provider
	// NoProvider, with Provider nil, is why there is none, returned by
	// SubmitTurn wrapped with ErrNoProvider (a configuration that did not
	// parse, new user r24 #4: the generic advice sent people after API keys).
	NoProvider error
	Model      string // the model ID sent to the provider ("gpt-4o")
	ModelName  string // as shown to people: "openai/gpt-4o"
	Tools      *tools.Registry
	Workspace  *sandbox.Workspace
	// Sandbox is the OS sandbox policy for commands (nil: process group and env
	// allowlist only).
	Sandbox *sandbox.Policy
	// TrustedCode are the workspace paths that trusted code runs outside the
	// sandbox (core.hooksPath's directory, the scripts of the person's hooks
	// and approved MCP servers), found at start: every edit and command that
	// writes one asks in every mode (permission.Input.TrustedCode).
	TrustedCode []permission.TrustedCode
	// ShellQuota is the background-shell budget the sessions of this Agent
	// draw on (shells running at once, processes each); agents of one Run
	// share one (core/app passes the first agent's ShellQuota on). nil makes
	// one of the defaults (tools.NewShellQuota(0, 0)).
	ShellQuota *tools.ShellQuota

	// SystemPrompt is the system message a new session's first turn
	// stores (DESIGN invariant 4: a continued session keeps its own).
	// NewSessionPrompt, when set, builds it instead at that moment (parts
	// read then: the memory snapshot), so a session started later in the
	// same process sees what was accepted meanwhile; "" from it falls back
	// to SystemPrompt.
	SystemPrompt     string
	NewSessionPrompt func() string
	PermissionMode   permission.Mode
	// Rules are the permission rules of the config files and flags; session rules
	// are read from the store at each turn.
	Rules    permission.RuleSet
	Approver Approver
	// Hooks runs the user's hooks (Claude Code's protocol); nil runs none.
	Hooks *hook.Runner
	// Home is the user's home directory, for `~/` permission rules.
	Home string
	// OwnerCommand names what runs this agent in its lease owner ("pincer
	// run", "pincer" for the workbench: owner.go), so another process finding
	// a session held can say which; "": "pincer".
	OwnerCommand string

	MaxIterations int           // model calls per turn; 0: DefaultMaxIterations
	LeaseTTL      time.Duration // 0: DefaultLeaseTTL
	DeltaInterval time.Duration // 0: DefaultDeltaInterval
	MaxTokens     int           // per model call; 0: the provider's default

	// ContextWindow is the model's context window in tokens; 0 (unknown) turns
	// automatic compaction off. CompactThreshold is the share of it at which a turn
	// compacts first (0: DefaultCompactThreshold).
	ContextWindow    int64
	CompactThreshold float64
	// DynamicPrompt, when set, returns the dynamic segments of the system prompt
	// (environment, git status...), recomputed for each model call; the static
	// part stays as the session's first turn wrote it.
	DynamicPrompt func() string
	// Diagnostics, when set, is told of the files each edit changed and adds
	// their language-server diagnostics to the dynamic prompt (diagnostics.go).
	Diagnostics Diagnoser
	// Instructions, when set, returns the project instructions re-read from disk,
	// for the view after a compaction.
	Instructions func() string
	// SpillRoot, when set, is where long tool outputs are saved in full, one
	// directory per session (SpillRoot/<session ID>, mode 0700). The agent adds a
	// session's directory to Workspace when the session first runs tools; the
	// root itself stays outside it, so no session reads another's outputs.
	SpillRoot string
	// Cost, when set, prices a model call's usage in USD (nil: unknown); a cost the
	// provider reported itself is kept.
	Cost func(message.Usage) *float64
	// Redactor, when set, replaces known secret values (the provider's key, the
	// secret-looking variables of pincer's environment) in every tool result —
	// its output, diff and hook feedback — before it reaches a hook, the event
	// log, the transcript or the provider.
	Redactor *Redactor
	// Checkpoints records what each file-changing tool call changes (issue
	// 15, checkpoints.go); nil records nothing.
	Checkpoints *checkpoint.Recorder
	// WebSearch, when set, is the provider's server-side web search
	// (Anthropic's web_search tool), declared on a model call only when the
	// permission mode or a rule allows WebSearch without asking; MaxUses is the
	// session's cap (serversearch.go).
	WebSearch *provider.WebSearch
	// ToolSearch is the tool-search policy deciding which tools are deferred
	// (deferred.go; the zero value is auto at 10% of the context window).
	// Deferral needs ToolSearch in Tools; without it every tool is offered.
	ToolSearch tools.SearchPolicy
	// Spawner, when set, builds subagents: the agent then offers the Agent
	// tool (agenttool.go). The agents a Spawner builds have none.
	Spawner Spawner
	// Teams offers the agent-team tools (TeamCreate, SendMessage, TeamDelete)
	// to an agent with a Spawner: off unless enabled, as Claude Code keeps agent
	// teams behind CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS (core/app: [agents]
	// teams = true in config.toml, or that variable set to 1).
	Teams bool
	// Classifier, when set, is the stage-two command classifier: the shell
	// commands no rule decided go to it (classify.go; permission.WithVerdict
	// says what its verdict may change). nil: they ask.
	Classifier Classifier
	// Protocols says which models use the text protocol (textproto.go) and
	// remembers a model switched to it when its provider refused tools; nil:
	// a MemoryProtocols of this agent's own (function calling everywhere until
	// a provider refuses tools).
	Protocols Protocols
	// Subagents is the registry of the process's subagent runs, shared by
	// the agents of one composition; nil: a registry of this agent's own.
	Subagents *Subagents
	// Observers look at each turn that completed, before its turn.completed
	// (observe.go: the learned-skill observer, the memory observer); nil:
	// none.
	Observers []TurnObserver
}

// Agent runs turns on sessions. Safe for concurrent use; one turn per session at a
// time.
type Agent struct {
	cfg     Config
	log     *event.Log
	owner   string // lease owner: pid plus a random id for this Agent
	schemas *schemaCache

	changes sync.Mutex // held while SetMode or SwitchModel records a change
	// sessionRules is held while a session's stored rules are read and
	// written back (an approval's remember, /permissions: rules.go).
	sessionRules sync.Mutex

	mu      sync.Mutex
	mode    permission.Mode // the permission mode in force; SetPermissionMode changes it
	active  map[string]bool
	files   map[string]*tools.FileState // per session: what was Read, for Write/Edit
	pending map[string][]string         // per session: hook context for the next user message
	shells  shellSets                   // per session: background shells (shells.go)

	subagents       *Subagents             // cfg.Subagents, or this agent's own
	childrenChecked map[string]bool        // parent sessions closeAbandonedChildren looked at
	budgets         map[string]*callBudget // sessions whose model calls a shared budget bounds (team members)
	agentTool       *agentTool             // the Agent tool, when cfg.Spawner is set
	teams           teamState              // the agent teams its sessions lead (team.go)
	tornWarned      map[string]bool        // sessions whose skipped transcript records were reported (torn.go)
}

// New returns an Agent for cfg.
func New(cfg Config) (*Agent, error) {
	if cfg.Store == nil || cfg.Tools == nil || cfg.Workspace == nil {
		return nil, errors.New("agent: Store, Tools and Workspace are required")
	}
	if cfg.MaxIterations <= 0 {
		cfg.MaxIterations = DefaultMaxIterations
	}
	if cfg.LeaseTTL <= 0 {
		cfg.LeaseTTL = DefaultLeaseTTL
	}
	if cfg.DeltaInterval <= 0 {
		cfg.DeltaInterval = DefaultDeltaInterval
	}
	if cfg.PermissionMode == "" {
		cfg.PermissionMode = permission.ModeDefault
	}
	if cfg.ShellQuota == nil {
		cfg.ShellQuota = tools.NewShellQuota(0, 0)
	}
	if cfg.Protocols == nil {
		cfg.Protocols = NewMemoryProtocols()
	}
	log := cfg.Log
	if log == nil {
		log = event.NewLog(cfg.Store)
	}
	subs := cfg.Subagents
	if subs == nil {
		subs = NewSubagents()
	}
	a := &Agent{
		cfg: cfg, log: log, mode: cfg.PermissionMode,
		owner:   newOwner(cfg.OwnerCommand),
		schemas: newSchemaCache(),
		active:  map[string]bool{}, files: map[string]*tools.FileState{}, pending: map[string][]string{},
		subagents: subs,
	}
	if cfg.Spawner != nil {
		a.agentTool = &agentTool{a: a}
	}
	return a, nil
}

// Subagents returns the registry of subagent runs the agent takes part in:
// follow, list, cancel and wait for a session's children.
func (a *Agent) Subagents() *Subagents { return a.subagents }

// ShellQuota is the background-shell budget this Agent's sessions draw on
// (Config.ShellQuota).
func (a *Agent) ShellQuota() *tools.ShellQuota { return a.cfg.ShellQuota }

// Log returns the event log the agent appends to.
func (a *Agent) Log() *event.Log { return a.log }

// Store returns the agent's store.
func (a *Agent) Store() persist.Store { return a.cfg.Store }

// CreateSession makes a new session in the workspace and emits session.created.
func (a *Agent) CreateSession(ctx context.Context) (persist.Session, error) {
	return a.CreateLinkedSession(ctx, persist.Session{})
}

// CreateLinkedSession is CreateSession for a session with link's ParentID,
// ParentToolCallID, AgentType, Worktree and Branch (a subagent's child
// session, a session in a worktree); link's other fields are ignored.
func (a *Agent) CreateLinkedSession(ctx context.Context, link persist.Session) (persist.Session, error) {
	now := time.Now().UTC()
	s := persist.Session{ID: newSessionID(now), Cwd: a.cfg.Workspace.Root(), Model: a.modelName(),
		Status: "idle", CreatedAt: now, UpdatedAt: now,
		ParentID: link.ParentID, ParentToolCallID: link.ParentToolCallID, AgentType: link.AgentType,
		Worktree: link.Worktree, Branch: link.Branch}
	if err := a.cfg.Store.PutSession(ctx, s); err != nil {
		return persist.Session{}, fmt.Errorf("create session: %w", err)
	}
	if _, err := a.log.Emit(ctx, event.SessionCreated, s.ID, "",
		event.SessionCreatedData{Cwd: s.Cwd, Model: s.Model}); err != nil {
		return persist.Session{}, fmt.Errorf("create session: %w", err)
	}
	return s, nil
}

// fileState returns the session's record of read files.
func (a *Agent) fileState(sessionID string) *tools.FileState {
	a.mu.Lock()
	defer a.mu.Unlock()
	fs, ok := a.files[sessionID]
	if !ok {
		fs = tools.NewFileState()
		a.files[sessionID] = fs
	}
	return fs
}

// newID returns 16 random hex characters.
func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// newSessionID returns a sortable, unique session ID: UTC time then randomness.
func newSessionID(now time.Time) string {
	return now.Format("20060102-150405") + "-" + newID()[:8]
}

// SetModelInfo sets what the catalog knows of the model: its context window in tokens
// (0: unknown, no automatic compaction) and how to price a call (nil: unknown).
// Call it before the first turn.
func (a *Agent) SetModelInfo(contextWindow int64, cost func(message.Usage) *float64) {
	a.cfg.ContextWindow = contextWindow
	a.cfg.Cost = cost
}

// MaxIterations is the agent's budget of model calls per turn
// (Config.MaxIterations; `pincer run --max-turns`).
func (a *Agent) MaxIterations() int { return a.cfg.MaxIterations }

// Mode returns the permission mode in force.
func (a *Agent) Mode() permission.Mode {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.mode
}

// SetPermissionMode changes the permission mode; decisions made from now on, in
// running turns too, use it (the workbench's Shift+Tab / Ctrl+T, as Claude Code's).
func (a *Agent) SetPermissionMode(m permission.Mode) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.mode = m
}

// Resolver is an Approver that can be answered by request ID from outside its own UI
// (the workbench's queue implements it).
type Resolver interface {
	Answer(requestID string, ans Approval) bool
}

// ErrNoSuchRequest is returned by Resolve for a request that is not waiting.
var ErrNoSuchRequest = errors.New("no pending permission request with that ID")

// Resolve answers a pending permission request (announced by permission.requested):
// decision allow or deny, scope once, session or always, and a reason that reaches
// the model on a denial. It fails with ErrNoSuchRequest when the request is not
// waiting (already answered, or its turn ended), and when the Approver cannot be
// answered from outside.
func (a *Agent) Resolve(requestID string, decision permission.Behavior, scope permission.Scope, reason string) error {
	r, ok := a.cfg.Approver.(Resolver)
	if !ok {
		return fmt.Errorf("%w: %s (this agent has no queue)", ErrNoSuchRequest, requestID)
	}
	if decision != permission.Allow {
		decision = permission.Deny
	}
	if scope == "" {
		scope = permission.ScopeOnce
	}
	if !r.Answer(requestID, Approval{Decision: permission.Decision{Behavior: decision, Reason: reason, By: "user"}, Scope: scope}) {
		return fmt.Errorf("%w: %s", ErrNoSuchRequest, requestID)
	}
	return nil
}

// SetModel switches the model of the agent's provider for the next model calls: id as
// the provider takes it ("gpt-4.1"), name as shown ("openai/gpt-4.1"), and the
// catalog's context window and pricing for it (0 / nil: unknown). The provider
// itself stays: switching to another provider means another Agent. Call it between
// turns (a running turn reads the window and pricing without a lock).
func (a *Agent) SetModel(id, name string, contextWindow int64, cost func(message.Usage) *float64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.cfg.Model, a.cfg.ModelName = id, name
	a.cfg.ContextWindow, a.cfg.Cost = contextWindow, cost
}

func (a *Agent) model() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.cfg.Model
}

func (a *Agent) modelName() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.cfg.ModelName
}

// Tools returns the agent's tool registry (a subagent's is its tool set).
func (a *Agent) Tools() *tools.Registry { return a.cfg.Tools }
