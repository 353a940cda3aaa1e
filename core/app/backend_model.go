package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"pincer/core/agent"
	"pincer/core/config"
	"pincer/core/config/modelflow"
)

// Prompter is how a /model command asks the person (modelflow.Prompter): a
// front end implements it and returns ErrCancelled when the person gives up.
type Prompter = modelflow.Prompter

// ErrCancelled is what a Prompter returns on cancel, and what a /model command
// returns when it was cancelled: nothing was saved.
var ErrCancelled = modelflow.ErrCancelled

// ErrNoModelConfig is ModelCommand's refusal when the backend has no
// configuration to run /model commands on (Backend.ModelEnv is nil).
var ErrNoModelConfig = errors.New("no model configuration here")

// ModelUsageError is ModelCommand's refusal of arguments that do not fit a /model
// command; its text says what would ("usage: /model default PROVIDER/MODEL").
type ModelUsageError struct{ Text string }

func (e *ModelUsageError) Error() string { return e.Text }

// ModelSubcommand is one word after /model, for completion and help.
type ModelSubcommand struct{ Name, Args, Help string }

// ModelSubcommands are the /model commands, in the order help lists them.
var ModelSubcommands = []ModelSubcommand{
	{"configure", "[PROVIDER]", "set up a provider (the default command)"},
	{"switch", "[MODEL]", "another model of this provider, for this session"},
	{"default", "PROVIDER/MODEL", "the global default model"},
	{"status", "", "providers, readiness, key sources"},
	{"list", "", "every provider/model"},
	{"refresh", "[PROVIDER...]", "ask providers for their models"},
	{"add-model", "PROVIDER MODEL", "add a model name to a provider"},
	{"set", "PROVIDER api-key", "store a provider's API key (asked hidden)"},
}

// ModelIO is how a running /model command talks to the person.
type ModelIO struct {
	// Prompter asks the command's questions.
	Prompter Prompter
	// Out receives the command's report (one line per outcome).
	Out io.Writer
	// Note adds a line to the transcript: the configuration's warnings.
	Note func(text string)
	// Notify shows a one-line message of a level ("info", "warning", "error").
	Notify func(level, text string)
}

// ModelCommand is one /model command of a session, checked and ready to Run.
type ModelCommand struct {
	// Name is the command ("configure", "switch", ...).
	Name string
	// Buffered is set for the commands whose report is a listing best shown
	// whole once they end (status, list) rather than line by line.
	Buffered bool

	b   *Backend
	run func(ctx context.Context, env *modelflow.Env, io ModelIO) error
}

// ModelCommand checks a /model command of sessionID (args are the words after
// /model; none is "pick": the session provider's models to switch to when it is configured, else configure) and returns it ready to run. It does no I/O, so a
// front end may call it from its event loop. It refuses with ErrNoModelConfig
// when there is no configuration, and with a *ModelUsageError when the arguments do
// not fit or the command is unknown.
func (b *Backend) ModelCommand(sessionID string, args []string) (*ModelCommand, error) {
	if b.ModelEnv == nil {
		return nil, ErrNoModelConfig
	}
	sub, rest := "", []string(nil)
	if len(args) > 0 {
		sub, rest = args[0], args[1:]
	}
	usage := func(form string) (*ModelCommand, error) {
		return nil, &ModelUsageError{"usage: /model " + form}
	}
	c := &ModelCommand{Name: sub, b: b}
	configure := func(ctx context.Context, env *modelflow.Env, io ModelIO) error {
		id, err := modelflow.Configure(ctx, env, io.Prompter, first(rest))
		if err != nil {
			return err
		}
		if !b.agentFor(sessionID).HasProvider() { // a session with no model to run on takes the new one at once
			if err := b.adoptModel(ctx, sessionID, id); err != nil {
				io.Notify("warning", "default model: "+id+" (saved; this session cannot use it yet: "+err.Error()+")")
				return nil
			}
			io.Notify("info", "default model: "+id+" (this session uses it now, and new runs of pincer)")
			return nil
		}
		io.Notify("info", "default model: "+id+" (new runs of pincer use it; /model switch changes this session's)")
		return nil
	}
	switch sub {
	case "": // bare /model: pick a model when one is configured, else set one up
		c.Name = "pick"
		c.run = func(ctx context.Context, env *modelflow.Env, io ModelIO) error {
			if b.hasConfiguredModel(ctx, env, sessionID) {
				return b.switchModel(ctx, env, io, sessionID, "")
			}
			return configure(ctx, env, io)
		}
	case "configure":
		if len(rest) > 1 {
			return usage("configure [PROVIDER]")
		}
		c.run = configure
	case "switch":
		if len(rest) > 1 {
			return usage("switch [MODEL]")
		}
		c.run = func(ctx context.Context, env *modelflow.Env, io ModelIO) error {
			return b.switchModel(ctx, env, io, sessionID, first(rest))
		}
	case "default":
		if len(rest) != 1 {
			return usage("default PROVIDER/MODEL")
		}
		c.run = func(ctx context.Context, env *modelflow.Env, _ ModelIO) error {
			return modelflow.SetDefault(ctx, env, rest[0])
		}
	case "status", "list":
		if len(rest) != 0 {
			return usage(sub)
		}
		c.Buffered = true
		c.run = func(ctx context.Context, env *modelflow.Env, io ModelIO) error {
			if sub == "status" {
				modelflow.Status(ctx, env, io.Out)
			} else {
				modelflow.List(ctx, env, io.Out, b.sessionModel(ctx, sessionID))
			}
			return nil
		}
	case "refresh":
		if b.ListModels == nil {
			return nil, &ModelUsageError{"/model refresh is not available here (try `pincer model refresh`)"}
		}
		c.run = func(ctx context.Context, env *modelflow.Env, io ModelIO) error {
			io.Notify("info", "refreshing model lists…")
			return modelflow.Refresh(ctx, env, rest, b.ListModels)
		}
	case "add-model":
		if len(rest) != 2 {
			return usage("add-model PROVIDER MODEL")
		}
		c.run = func(_ context.Context, env *modelflow.Env, _ ModelIO) error {
			return modelflow.AddModel(env, rest[0], rest[1])
		}
	case "set":
		if len(rest) < 2 || len(rest) > 3 || rest[1] != "api-key" {
			return usage("set PROVIDER api-key (the key is asked, hidden)")
		}
		key := strings.Join(rest[2:], "")
		c.run = func(ctx context.Context, env *modelflow.Env, io ModelIO) error {
			return modelflow.SetAPIKey(ctx, env, io.Prompter, rest[0], key)
		}
	default:
		names := make([]string, len(ModelSubcommands))
		for i, s := range ModelSubcommands {
			names[i] = s.Name
		}
		return nil, &ModelUsageError{"unknown /model command " + sub + " (" + strings.Join(names, ", ") + ")"}
	}
	return c, nil
}

// Run runs the command: it loads the configuration (its warnings go to
// io.Note), then the flow, which asks through io.Prompter and reports to
// io.Out. It returns ErrCancelled (possibly wrapped) when the person gave up.
// It blocks: call it off the front end's event loop.
func (c *ModelCommand) Run(ctx context.Context, io ModelIO) error {
	env, warns := c.b.ModelEnv()
	for _, e := range warns {
		io.Note("warning: " + e.Error())
	}
	env.Out = io.Out
	return c.run(ctx, env, io)
}

// first is list[0], or "".
func first(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return list[0]
}

// sessionModel is the model a session uses: its record's, else the agent's.
func (b *Backend) sessionModel(ctx context.Context, sessionID string) string {
	if s, err := b.Store.GetSession(ctx, sessionID); err == nil && s.Model != "" {
		return s.Model
	}
	return b.Agent.ModelName()
}

// errSwitchRunning is /model switch's refusal while the session runs a turn.
var errSwitchRunning = errors.New("a turn is running: switch the model after it ends")

// switchModel is /model switch: a model of the active provider for this session
// only. The agent uses it from the next turn (with its context window and
// prices, ResolveModel), the session's record stores it, and a model.changed
// event records it (agent.SwitchModel).
func (b *Backend) switchModel(ctx context.Context, env *modelflow.Env, io ModelIO, sessionID, arg string) error {
	next, err := modelflow.Switch(env, io.Prompter, b.sessionModel(ctx, sessionID), arg)
	if err != nil {
		return err
	}
	if b.needsProvider(sessionID, next) {
		if err := b.adoptModel(ctx, sessionID, next); err != nil {
			return err
		}
		io.Notify("info", fmt.Sprintf("this session now uses %s (the default is unchanged)", next))
		return nil
	}
	resolve := b.ResolveModel
	if resolve == nil {
		resolve = CatalogModel
	}
	if err := b.agentFor(sessionID).SwitchModel(ctx, sessionID, resolve(env, next)); err != nil {
		if errors.Is(err, agent.ErrTurnActive) { // a turn started while the person chose
			return errSwitchRunning
		}
		return err
	}
	io.Notify("info", fmt.Sprintf("this session now uses %s (the default is unchanged)", next))
	return nil
}

// hasConfiguredModel reports whether the session's model (else the default)
// names a configured provider, or one the session runs on without
// configuration (--base-url), so a bare /model can offer its models to pick
// from rather than the setup flow.
func (b *Backend) hasConfiguredModel(ctx context.Context, env *modelflow.Env, sessionID string) bool {
	current := b.sessionModel(ctx, sessionID)
	if current == "" {
		current = env.Config.DefaultModel
	}
	prov, _, ok := config.ParseModelID(current)
	if !ok {
		return false
	}
	if _, known := env.Config.Lookup(prov); known {
		return true
	}
	// A provider the run was given on the command line (--base-url), not in
	// the configuration: its session still picks among its models (the
	// current one at least) rather than being sent to the setup flow (new
	// user r19: a bare /model opened the provider list).
	return b.agentFor(sessionID).HasProvider()
}

// CatalogModel resolves a model ID ("openai/gpt-4.1") with the model catalog
// (ModelInfo): its context window and pricing when the catalog knows it (else 0
// and nil: unknown), priced for the API env's configuration gives its provider.
func CatalogModel(env *modelflow.Env, id string) agent.ModelChoice {
	prov, model, _ := config.ParseModelID(id)
	pc, _ := env.Config.Lookup(prov)
	window, cost, _ := ModelInfo(ModelChoice{Provider: prov, Model: model, API: pc.API,
		ContextWindow: config.ModelSetting(env.Config.Models, id).ContextWindow})
	return agent.ModelChoice{ID: model, Name: id, ContextWindow: window, Cost: cost}
}

// DefaultModelEnv is the Env of `pincer model` for one /model command of the
// workbench: the configuration loaded afresh (its warnings returned), the secret
// store, the process environment.
func DefaultModelEnv() (*modelflow.Env, []error) { return ModelEnvAt("")() }

// ModelEnvAt is DefaultModelEnv for the workspace dir ("": the current
// directory): its project configuration joins the layers (`pincer serve`
// runs workspaces other than its own directory).
func ModelEnvAt(dir string) func() (*modelflow.Env, []error) {
	return func() (*modelflow.Env, []error) { return modelEnvAt(dir) }
}

// modelEnvAt is ModelEnvAt's Env, loaded now.
func modelEnvAt(dir string) (*modelflow.Env, []error) {
	if dir == "" {
		dir, _ = os.Getwd()
	}
	cfg, warns := config.Load(config.Options{Getenv: os.Getenv, ProjectDir: dir})
	env := &modelflow.Env{Config: cfg, Getenv: os.Getenv, List: ListModels}
	if s := OpenSecrets(os.Getenv); s != nil {
		env.Secrets = s
	}
	return env, warns
}
