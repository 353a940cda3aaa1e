package cli

import (
	"flag"
	"strings"
	"time"

	"pincer/core/agent"
	"pincer/core/app"
	"pincer/core/permission"
)

// sessionFlags are the flags `pincer run` and the workbench share, registered in
// one place (addSessionFlags) so the two take the same flags with the same meaning.
type sessionFlags struct {
	model, baseURL, mode, session   string
	worktree                        string
	allowedTools, disallowedTools   stringList // repeatable: each use adds rules
	addDirs                         stringList
	mcpConfigs                      stringList
	cont, noSandbox                 bool
	allowNetwork, trustProjectHooks bool
	stall                           time.Duration
	sessionSet                      bool // --session was given (even empty)
}

// addSessionFlags registers the shared flags on fs.
func addSessionFlags(fs *flag.FlagSet, f *sessionFlags) {
	addWorkspaceFlags(fs, f)
	fs.BoolVar(&f.cont, "continue", false, "continue the most recent session in this directory")
	fs.BoolVar(&f.cont, "c", false, "short for --continue")
	fs.StringVar(&f.session, "session", "", "continue the session with this ID")
	fs.StringVar(&f.worktree, "worktree", "", "work in the git worktree NAME of this repository, on its own branch pincer/NAME (made from HEAD when missing; see pincer worktrees)")
}

// addWorkspaceFlags adds the flags that shape every session's run (model,
// mode, rules, directories, MCP, sandbox, hooks, stall), without those that
// pick the session: `pincer serve` takes these for every workspace it runs.
func addWorkspaceFlags(fs *flag.FlagSet, f *sessionFlags) {
	fs.StringVar(&f.model, "model", "", "model as PROVIDER/MODEL (default: the session's model when continuing, $PINCER_MODEL, default_model in config.toml, or detected)")
	fs.StringVar(&f.baseURL, "base-url", "", "base URL of an OpenAI-compatible API (…/v1)")
	fs.StringVar(&f.mode, "permission-mode", "default", modeNames())
	fs.Var(&f.allowedTools, "allowed-tools", `permission rules to allow, e.g. "Bash(npm test:*) Read" (comma or space separated; repeatable)`)
	fs.Var(&f.disallowedTools, "disallowed-tools", `permission rules to deny, e.g. "Bash(git push:*)" (repeatable: every use adds)`)
	fs.Var(&f.addDirs, "add-dir", "another directory the tools may use besides this one (repeatable)")
	fs.Var(&f.mcpConfigs, "mcp-config", "load MCP servers from a JSON file in the .mcp.json shape, or that JSON itself (repeatable; trusted: its servers start unasked)")
	fs.BoolVar(&f.noSandbox, "no-sandbox", false, "run commands without the OS sandbox (Landlock, namespaces, rlimits); the env allowlist still applies")
	fs.BoolVar(&f.allowNetwork, "allow-network", false, "let sandboxed commands reach the network (off by default; like network = true in your config.toml)")
	fs.BoolVar(&f.trustProjectHooks, "trust-project-hooks", false, "run the hooks of this project's .pincer/config.toml and .claude/settings*.json, and remember that until they change (see pincer trust)")
	fs.DurationVar(&f.stall, "stall-timeout", 90*time.Second, "fail a stream that sends no bytes for this long")
}

// options checks the shared flags after fs parsed them and turns them into the
// composition root's Options. Errors are usage errors.
func (f *sessionFlags) options(fs *flag.FlagSet) (app.Options, error) {
	fs.Visit(func(fl *flag.Flag) { f.sessionSet = f.sessionSet || fl.Name == "session" })
	mode, err := permission.ParseMode(f.mode)
	if err != nil {
		return app.Options{}, usageError{Msg: err.Error()}
	}
	if f.cont && f.session != "" {
		return app.Options{}, usagef("--continue and --session cannot be used together")
	}
	if f.sessionSet && strings.TrimSpace(f.session) == "" {
		return app.Options{}, usagef("--session needs a session ID (see \"pincer sessions\")")
	}
	if f.stall <= 0 {
		return app.Options{}, usagef("--stall-timeout must be positive, got %s", f.stall)
	}
	return app.Options{
		Model: f.model, BaseURL: f.baseURL, Mode: mode, Continue: f.cont, Session: f.session,
		AllowedTools: f.allowedTools, DisallowedTools: f.disallowedTools, AddDirs: f.addDirs, Worktree: f.worktree,
		NoSandbox: f.noSandbox, AllowNetwork: f.allowNetwork, TrustProjectHooks: f.trustProjectHooks, MCPConfigs: f.mcpConfigs,
		MaxIterations: agent.DefaultMaxIterations, StallTimeout: f.stall,
	}, nil
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }
