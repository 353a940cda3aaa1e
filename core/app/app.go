// Package app is pincer's composition root: from the command line's Options it
// resolves the model (one rule for every front end), reads the configuration,
// builds the provider, tools, sandbox policy, permission rules, hooks, system
// prompt and agent, opens the store and picks the session. `pincer run`, the
// workbench and, later, subagents and the web panel are built here and nowhere
// else; front ends (ui/) only parse flags and show what the Run does.
//
// Two steps, so the workbench can draw its first frame before the store opens:
// Prepare reads every file and flag (a config file that does not parse is a
// *ConfigFailure, or with Options.FailClosed a Setup that denies every tool call);
// Setup.Start opens the store and the session. Open does both.
//
// Backend (backend*.go) is the seam a front end drives a Run through: submit,
// resolve an approval (ApprovalQueue), mode and model changes, sessions, the log.
// The workbench holds it as its tui.Backend interface and imports this package
// only for that seam's types.
package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"pincer/core/agent"
	"pincer/core/config"
	"pincer/core/hook"
	"pincer/core/lsp"
	"pincer/core/mcp"
	"pincer/core/memory"
	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/plugin"
	"pincer/core/provider"
	"pincer/core/provider/catalog"
	"pincer/core/skill"
	"pincer/core/subagent"
	"pincer/core/worktree"
	"pincer/persist"
	"pincer/sandbox"
	"pincer/tools"
)

// Options are what a front end's flags ask of a run. The zero value is a new
// session in the current directory with the configured default model.
type Options struct {
	Model   string // PROVIDER/MODEL; "" follows ResolveModel's order
	BaseURL string // an OpenAI-compatible base URL overriding the provider's
	Mode    permission.Mode

	// Dir is the workspace directory (absolute); "": the current directory.
	// `pincer serve` prepares one Run per workspace it is asked for.
	Dir string

	Continue bool   // the newest session of this directory
	Session  string // a session ID (or its short form); exclusive with Continue

	AllowedTools, DisallowedTools []string // rule lists, each as one --allowed-tools value
	AddDirs                       []string // more directories the tools may use

	// Worktree puts the session in its own git worktree (`--worktree NAME`):
	// the one of that name of the current directory's repository, made when
	// missing (core/worktree: a branch pincer/NAME at HEAD, in the data
	// directory), becomes the workspace; the session record names it.
	Worktree string

	NoSandbox, AllowNetwork, TrustProjectHooks bool

	// MCPConfigs are the --mcp-config values (Claude Code's flag): JSON files in
	// the .mcp.json shape, or the JSON itself; the person's own, so trusted.
	MCPConfigs []string

	MaxIterations int           // model calls per turn; 0: agent.DefaultMaxIterations
	StallTimeout  time.Duration // a stream silent this long fails; 0: 90 s

	// ModelOptional lets Prepare succeed when no model resolves (no key, nothing
	// configured): the workbench opens to browse sessions and say why it cannot send.
	// The resolution error is then Setup.ModelErr, and Setup.Provider is nil.
	ModelOptional bool
	// Command names the front end in the session leases this run takes ("pincer
	// run", "pincer" for the workbench), so another process finding a session
	// held says what runs it; "": "pincer".
	Command string
	// FailClosed makes a configuration that does not parse a Setup that denies every
	// tool call and runs no hook (Setup.ConfigErrors says why), instead of an error.
	FailClosed bool
}

// Setup is everything Prepare built from files and flags, before the store opens.
type Setup struct {
	Options   Options
	Workspace *sandbox.Workspace
	// Worktree is the worktree the workspace is (Options.Worktree); nil: none.
	Worktree *worktree.Worktree
	Model    ModelChoice
	ModelErr error             // why no model resolved (Options.ModelOptional only)
	Provider provider.Provider // nil when ModelErr is set
	Tools    *tools.Registry
	Rules    permission.RuleSet
	Hooks    *hook.Runner
	// MCPServers are the configured MCP servers (mcp_config.go), one per name,
	// in name order; a project server the person has not approved has
	// Approved false and must not be started.
	MCPServers []mcp.ServerConfig
	// MCPWarnings are the problems of the MCP configuration (a .mcp.json or
	// --mcp-config file that does not parse, an entry left out), one line
	// each (FILE:LINE: what), also among Warnings: the workbench's /mcp shows
	// them, so a broken file is not "no servers".
	MCPWarnings []string
	// mcpFileAtStart is the project's .mcp.json when the configuration was
	// read (Backend.MCPConfigWarnings says when it changed since).
	mcpFileAtStart fileStamp
	// Plugins are the plugins enabled for the workspace that loaded (core/plugin):
	// their hooks are in Hooks, their MCP servers in MCPServers, their skills
	// and commands in the catalog.
	Plugins []*plugin.Plugin
	Sandbox *sandbox.Policy // nil: commands run without the OS sandbox
	// TrustedCode are the workspace paths trusted code runs outside the
	// sandbox (trusted_code.go): protected paths of this session, read-only in
	// Sandbox (its TrustedCode).
	TrustedCode []permission.TrustedCode
	// LSP are the language servers in force and the diagnostics wait (lsp.go).
	LSP lspSetup
	// Checkpoints is the user's [checkpoints] table (checkpoints.go): off, or
	// the Recorder's limits.
	Checkpoints config.CheckpointsSettings
	// ToolSearch is the tool-search setting: which tools are deferred
	// (ENABLE_TOOL_SEARCH, else [tools] search, else auto; toolsearch.go).
	ToolSearch tools.SearchPolicy
	// Teams offers the agent-team tools (teams.go: [agents] teams = true in
	// the user's config.toml, or CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS=1).
	Teams bool
	// WebSearch is Anthropic's server-side web search for the agent (web.go:
	// an Anthropic model with no [web] search_backend); nil: none.
	WebSearch *provider.WebSearch
	// Protocols says which models use the text protocol (protocols.go:
	// [models."NAME"] protocol, else the switches remembered under DATA).
	Protocols agent.Protocols
	// Classifier is the stage-two command classifier ([permissions.classifier]:
	// classifier.go); nil: none.
	Classifier agent.Classifier
	// Skills are the session's skills and custom commands (skills.go),
	// discovered once by Prepare (after the plugins: their layer).
	Skills *skill.Catalog
	// SkillsLearn is the user's [skills] table: whether and how often
	// turns that worked are proposed as learned skills (skills_learn.go).
	SkillsLearn config.SkillsSettings
	// MemorySet is the user's [memory] table: whether memory is on (the
	// snapshot, the Remember tool, "remember that …"), the observer, the
	// per-session limit (memory.go).
	MemorySet config.MemorySettings
	// Agents are the session's agent definitions (agents.go: built-in,
	// project, user, plugin; core/subagent), discovered once by Prepare: the
	// Agent tool's subagent_type is looked up here, its listing is static.
	Agents *subagent.Catalog
	// Config is the configuration as read, once, by Prepare (the workbench's
	// [keys] come from it).
	Config *config.Sources
	// Warnings are configuration problems that did not stop the run (one line
	// each, no "pincer: warning:" prefix); ConfigErrors the fatal ones, when
	// Options.FailClosed turned them into denials.
	Warnings     []string
	ConfigErrors []string

	rescan rescanSaid // what RescanSkills has said, so each problem is said once
}

// Run is a started session: the agent over an open store.
type Run struct {
	*Setup
	Agent     *agent.Agent
	Store     persist.Store
	SessionID string
	// After is the last event sequence of a continued session (0 for a new one):
	// front ends that print the log start after it.
	After uint64
	// MCP runs the Setup's MCP servers (started by Start, in the background;
	// closed by Close): their tools join Setup.Tools as they connect.
	MCP *mcp.Manager
	// LSP runs the language servers whose diagnostics follow each edit
	// (core/lsp; started lazily, shut down by Close); nil when none is in force.
	LSP *lsp.Manager
	// Memory proposes, decides and writes the memory and skill candidates of
	// the Run's project (core/memory; run_memory.go); nil without config and
	// data dirs.
	Memory *memory.Manager

	approver agent.Approver // Start's, for DeriveAgent
	derived  derivedAgents  // DeriveAgent's, whose shells Close ends
	shared   bool           // Store is a SharedStore's: Close leaves it open
}

// Open prepares and starts a run (Prepare, then Setup.Start).
func Open(ctx context.Context, opts Options, approver agent.Approver) (*Run, error) {
	s, err := Prepare(opts)
	if err != nil {
		return nil, err
	}
	return s.Start(ctx, approver)
}

// Prepare reads the configuration and flags and builds everything but the store.
// Errors: a UsageError for a bad option (an --add-dir that is not a directory, a
// bad rule, a malformed model name), a *ConfigFailure for files that do not parse
// (unless Options.FailClosed), the model's resolution error (unless
// Options.ModelOptional). When the model does not resolve, the Setup returned
// with the error still holds the Warnings met before (for the caller to print).
func Prepare(opts Options) (*Setup, error) {
	if opts.Continue && opts.Session != "" {
		return nil, usagef("--continue and --session cannot be used together")
	}
	if opts.StallTimeout == 0 {
		opts.StallTimeout = 90 * time.Second
	}
	s := &Setup{Options: opts, Tools: tools.Default()}
	ws, err := workspaceAt(opts.Dir)
	if err != nil {
		return nil, err
	}
	s.Workspace = ws
	s.trustOwnPATH(nil) // before anything runs git or go (--worktree, the configuration's trusted code)
	if opts.Worktree != "" {
		if err := worktree.ValidName(opts.Worktree); err != nil {
			return nil, usagef("--worktree: %v", err)
		}
		wt, err := openWorktree(ws.Root(), opts.Worktree)
		if err != nil {
			return nil, fmt.Errorf("--worktree %s: %w", opts.Worktree, err)
		}
		if ws, err = WorktreeWorkspace(wt); err != nil {
			return nil, err
		}
		s.Worktree = &wt
	}
	for _, d := range opts.AddDirs {
		if err := ws.AddDir(d); err != nil {
			return nil, usagef("--add-dir %s: %v", d, err)
		}
	}
	s.Workspace = ws
	if err := s.readConfig(); err != nil {
		return nil, err
	}
	if w := s.trustOwnPATH(s.Sandbox); w != "" {
		s.Warnings = append(s.Warnings, w)
	}
	s.loadSkills()
	s.loadAgents()
	s.warnRefusedInstructions()
	mc, err := chooseModel(opts.Model, opts.BaseURL, opts.Session, opts.Continue, ws.Root(), s.Config)
	s.Warnings = append(s.Warnings, mc.Warnings...)
	var ue UsageError
	var se *SessionError
	switch {
	case err == nil:
		s.Model = mc
		s.chooseEditTools()
		if s.Provider, err = newProvider(mc, opts.StallTimeout); err != nil {
			return s, err
		}
	case opts.ModelOptional && !errors.As(err, &se) && (!errors.As(err, &ue) || len(s.ConfigErrors) > 0):
		// With a broken configuration an unknown provider is no usage error: the
		// file that would define it did not parse, and the workbench says so.
		s.Model, s.ModelErr = mc, err
	default:
		return s, err
	}
	s.addWebTools()
	return s, nil
}

// fallbackModel is the name shown when no model resolves: the flag, else
// $PINCER_MODEL, else DefaultModel.
func fallbackModel(flagModel string) string {
	if flagModel != "" {
		return flagModel
	}
	return envOrDefault("PINCER_MODEL", DefaultModel)
}

// SystemPrompt is the system prompt a new session of this setup gets, built
// now (the agents build it when a session's first turn starts: the memory
// snapshot is read then).
func (s *Setup) SystemPrompt() string {
	return buildSystemPrompt(s.Workspace, s.Tools, s.Model.ID(), s.promptSegments()...)
}

// Start opens the store, builds the agent (approver answers its asks; nil: every
// ask is denied, as headless) and picks the session: a new one, the newest of
// this directory (Continue) or Session. Then the MCP servers start connecting in
// the background (Run.MCP; `pincer run` waits for them with WaitMCP, the
// workbench, whose Start runs behind its first frame, does not). The caller
// closes the Run.
func (s *Setup) Start(ctx context.Context, approver agent.Approver) (*Run, error) {
	return s.start(ctx, approver, nil)
}

// start is Start over the store of shared (nil: a store of the Run's own,
// opened now and closed by Close).
func (s *Setup) start(ctx context.Context, approver agent.Approver, shared persist.Store) (*Run, error) {
	m := s.newMCP()
	var r *Run
	sp := &spawner{run: func() *Run { return r }, ws: s.Workspace, registry: s.Tools}
	ls := s.newLSP()
	ag, store, err := s.newAgentWith(approver, m, sp, shared, ls)
	if err != nil {
		m.Close()
		return nil, err
	}
	r = &Run{Setup: s, Agent: ag, Store: store, MCP: m, LSP: ls, approver: approver, shared: shared != nil}
	r.Memory = s.newMemory(store, ag.Log())
	r.addRemember()
	r.SessionID, r.After, err = pickSession(ctx, ag, store, s.Options.Continue, s.Options.Session, s.Workspace.Root())
	if err == nil && r.After == 0 && s.Worktree != nil {
		err = markWorktree(ctx, store, r.SessionID, *s.Worktree)
	}
	if err != nil {
		m.Close()
		if shared == nil {
			store.Close()
		}
		return nil, err
	}
	r.startMCP(ctx)
	if m != nil && s.Skills != nil {
		s.Skills.AddSource(mcpPrompts{m}) // /mcp__SERVER__PROMPT (mcp_prompts.go)
	}
	return r, nil
}

// NewAgent opens the store and builds the agent, without picking a session (for
// `pincer run "/context"`, which only reads). The caller closes the store.
func (s *Setup) NewAgent(approver agent.Approver) (*agent.Agent, persist.Store, error) {
	return s.newAgent(approver, nil)
}

// newAgent is NewAgent with the Run's MCP Manager (nil: none), whose ready
// servers' instructions join the dynamic prompt.
func (s *Setup) newAgent(approver agent.Approver, m *mcp.Manager) (*agent.Agent, persist.Store, error) {
	return s.newAgentWith(approver, m, nil, nil, nil)
}

// newAgentWith is newAgent with the Spawner of the Run's subagents (nil: the
// agent offers no Agent tool; with no agent definitions, none either), over
// shared (nil: a store opened now, closed on failure).
func (s *Setup) newAgentWith(approver agent.Approver, m *mcp.Manager, sp *spawner, shared persist.Store, ls *lsp.Manager) (*agent.Agent, persist.Store, error) {
	var spawn agent.Spawner
	if sp != nil && s.Agents != nil {
		spawn = sp
	}
	var diag agent.Diagnoser
	if ls != nil {
		diag = diagnoser{ls}
	}
	store := shared
	if store == nil {
		var err error
		if store, err = OpenStore(); err != nil {
			return nil, nil, err
		}
	}
	mc, ws, registry := s.Model, s.Workspace, s.Tools
	home, _ := os.UserHomeDir()
	var observers []agent.TurnObserver
	if sp != nil {
		observers = s.observers(sp.run)
	}
	ag, err := agent.New(agent.Config{
		Observers: observers,
		Store:     store, Provider: s.Provider, NoProvider: s.noProviderReason(), Model: mc.Model, ModelName: mc.ID(),
		Tools: registry, Workspace: ws, Sandbox: s.Sandbox, TrustedCode: s.TrustedCode,
		Rules: s.Rules, Hooks: s.Hooks, Home: home, SpillRoot: toolResultsDir(), Redactor: sessionRedactor(mc),
		DynamicPrompt:  func() string { return dynamicPrompt(ws, registry, mc.ID(), mcpSegments(m)...) },
		Instructions:   func() string { return instructionsText(ws) },
		PermissionMode: s.Options.Mode, MaxIterations: s.Options.MaxIterations,
		NewSessionPrompt: s.SystemPrompt, Approver: approver, OwnerCommand: s.Options.Command,
		ToolSearch: s.ToolSearch, Spawner: spawn, Teams: s.Teams, Subagents: agent.NewSubagents(),
		Protocols: s.Protocols, Classifier: s.Classifier,
		Diagnostics: diag,
		Checkpoints: checkpointRecorder(store, ws, s.Checkpoints, sessionRedactor(mc)),
		WebSearch:   s.WebSearch,
	})
	if err != nil {
		if shared == nil {
			store.Close()
		}
		return nil, nil, err
	}
	if window, cost, ok := ModelInfo(mc); ok {
		ag.SetModelInfo(window, cost)
	}
	return ag, store, nil
}

// ModelInfo is a model's context window (tokens: its [models."NAME"]
// context_window, else the catalog's) and the price of a usage in US dollars
// (nil: unknown, the catalog's); ok is false when neither is known. Anthropic
// reports cache reads and writes apart from input tokens, the other APIs
// inside them.
func ModelInfo(mc ModelChoice) (window int64, cost func(message.Usage) *float64, ok bool) {
	m, ok := catalog.Lookup(mc.Provider, mc.Model)
	if !ok {
		return mc.ContextWindow, nil, mc.ContextWindow > 0
	}
	window = m.ContextWindow
	if mc.ContextWindow > 0 {
		window = mc.ContextWindow
	}
	return window, func(u message.Usage) *float64 { return m.Cost(u, mc.API != "anthropic") }, true
}

// Source is the SessionStart hooks' source of this run: "resume" for a continued
// session, "startup" for a new one.
func (r *Run) Source() string {
	if r.After > 0 {
		return "resume"
	}
	return "startup"
}

// DiscardIfUnused deletes the session this Run created when no turn stored a
// message in it (a workbench opened and closed without a prompt), so an empty
// session neither lists in `pincer sessions` nor becomes what --continue picks —
// as Claude Code keeps no conversation that never began. A continued session is
// never deleted. It reports whether it deleted.
func (r *Run) DiscardIfUnused(ctx context.Context) (bool, error) {
	if r.Options.Continue || r.Options.Session != "" || r.After > 0 {
		return false, nil
	}
	msgs, err := r.Store.ListMessages(ctx, r.SessionID)
	if err != nil || len(msgs) > 0 {
		return false, err
	}
	return true, r.Store.DeleteSession(ctx, r.SessionID)
}

// endSubagentsWait bounds how long Close waits for cancelled subagents to
// record their end.
const endSubagentsWait = 10 * time.Second

// Close cancels the Run's running subagents (and waits, endSubagentsWait at
// most, until each recorded its end), ends the background shells of
// the Run's agents (closeShells) and the waiting warm helpers
// (sandbox.StopWarm), stops the MCP servers and closes the store
// (a SharedStore's is left open: its owner closes it).
func (r *Run) Close() error {
	if r.Agent != nil {
		// a subagent's run ends with its process, its end recorded before the store closes
		ctx, cancel := context.WithTimeout(context.Background(), endSubagentsWait)
		r.Agent.Subagents().EndAll(ctx)
		cancel()
	}
	r.closeShells()
	// The helper pre-started for a next command creates the workspace's
	// absent protected paths; one still starting as pincer exited raced the
	// removal of the workspace (e2e: "directory not empty"). Another Run of
	// the process only finds its next helper cold.
	sandbox.StopWarm()
	if r.MCP != nil {
		r.MCP.Close()
	}
	if r.LSP != nil {
		r.LSP.Close() // shutdown and exit, then the process group: no server outlives the Run
	}
	if r.shared {
		return nil
	}
	return r.Store.Close()
}

// UsageError marks an error caused by the command line or the options it gave
// (front ends exit 2 for it).
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

func usagef(format string, a ...any) error { return UsageError{fmt.Sprintf(format, a...)} }

// noProviderReason is why the Setup has no provider, for the agent's turns to
// say (agent.Config.NoProvider): the configuration that did not parse, else
// the model's resolution error; nil with a provider or no reason known.
func (s *Setup) noProviderReason() error {
	switch {
	case s.Provider != nil:
		return nil
	case len(s.ConfigErrors) > 0:
		return fmt.Errorf("the configuration does not parse (%s): fix it, then restart pincer", s.ConfigErrors[0])
	default:
		return s.ModelErr
	}
}
