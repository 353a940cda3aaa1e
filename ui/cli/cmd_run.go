package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"pincer/core/agent"
	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/prompt"
	"pincer/core/provider/catalog"
	"pincer/persist"
	"pincer/sandbox"
	"pincer/tools"
	"pincer/ui/headless"
)

// runFlags are the flags of `pincer run`.
type runFlags struct {
	model, baseURL, mode, format, session  string
	allowedTools, disallowedTools          stringList // repeatable: each use adds rules
	addDirs                                stringList
	maxTurns                               int
	cont, printPrompt, noSandbox, noDaemon bool
	allowNetwork, trustProjectHooks        bool
	stall                                  time.Duration
}

func newRunFlagSet(stderr io.Writer) (*flag.FlagSet, *runFlags) {
	f := &runFlags{}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are printed as one line by runMain; --help prints usage
	fs.StringVar(&f.model, "model", "", "model as PROVIDER/MODEL (default: the session's model when continuing, $PINCER_MODEL, default_model in config.toml, or detected)")
	fs.StringVar(&f.baseURL, "base-url", "", "base URL of an OpenAI-compatible API (…/v1)")
	fs.StringVar(&f.mode, "permission-mode", "default", "default | acceptEdits | plan | bypassPermissions | dontAsk")
	fs.StringVar(&f.format, "output-format", "text", "text | json | stream-json")
	fs.IntVar(&f.maxTurns, "max-turns", agent.DefaultMaxIterations, "most model calls in this turn")
	fs.BoolVar(&f.cont, "continue", false, "continue the most recent session in this directory")
	fs.BoolVar(&f.cont, "c", false, "short for --continue")
	fs.StringVar(&f.session, "session", "", "continue the session with this ID")
	fs.Var(&f.allowedTools, "allowed-tools", `permission rules to allow, e.g. "Bash(npm test:*) Read" (comma or space separated; repeatable)`)
	fs.Var(&f.disallowedTools, "disallowed-tools", `permission rules to deny, e.g. "Bash(git push:*)" (repeatable: every use adds)`)
	fs.Var(&f.addDirs, "add-dir", "another directory the tools may use besides this one (repeatable)")
	fs.BoolVar(&f.noDaemon, "no-daemon", false, "open the store in this process, not through the store daemon (it then has it to itself)")
	fs.BoolVar(&f.noSandbox, "no-sandbox", false, "run commands without the OS sandbox (Landlock, namespaces, rlimits); the env allowlist still applies")
	fs.BoolVar(&f.allowNetwork, "allow-network", false, "let sandboxed commands reach the network (off by default; like `network = true` in your config.toml)")
	fs.BoolVar(&f.trustProjectHooks, "trust-project-hooks", false, "run the hooks of this project's .pincer/config.toml and .claude/settings*.json, and remember that until they change (see pincer trust)")
	fs.BoolVar(&f.printPrompt, "print-system-prompt", false, "print the system prompt a new session would get, and exit")
	fs.DurationVar(&f.stall, "stall-timeout", 90*time.Second, "fail a stream that sends no bytes for this long")
	fs.Usage = func() {} // parse errors are one line; --help is answered by cmdRun
	return fs, f
}

// cmdRun is `pincer run`: one headless turn.
func cmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	fs, f := newRunFlagSet(stderr)
	pos, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stderr, "Usage: pincer run [flags] [PROMPT]   (PROMPT, standard input, or both: stdin is appended)")
		fs.SetOutput(stderr)
		fs.PrintDefaults()
		return 0, err
	}
	if err != nil {
		return 0, err
	}
	mode, err := permission.ParseMode(f.mode)
	if err != nil {
		return 0, usageError{err.Error()}
	}
	format, err := headless.ParseFormat(f.format)
	if err != nil {
		return 0, usageError{err.Error()}
	}
	if f.maxTurns < 1 {
		return 0, usagef("--max-turns must be at least 1")
	}
	if f.cont && f.session != "" {
		return 0, usagef("--continue and --session cannot be used together")
	}
	sessionSet := false
	fs.Visit(func(fl *flag.Flag) { sessionSet = sessionSet || fl.Name == "session" })
	if sessionSet && strings.TrimSpace(f.session) == "" {
		return 0, usagef("--session needs a session ID (see \"pincer sessions\")")
	}
	if f.stall <= 0 {
		return 0, usagef("--stall-timeout must be positive, got %s", f.stall)
	}
	if f.printPrompt {
		ws, err := workspaceHere()
		if err != nil {
			return 0, err
		}
		model := f.model
		if model == "" {
			model = envOrDefault("PINCER_MODEL", defaultModel)
		}
		fmt.Fprintln(stdout, buildSystemPrompt(ws, tools.Default(), model))
		return 0, nil
	}
	input, err := readPrompt(pos, stdin)
	if err != nil {
		return 0, err
	}
	if f.noDaemon {
		os.Setenv("PINCER_NO_DAEMON", "1")
	}
	ws, err := workspaceHere()
	if err != nil {
		return 0, err
	}
	for _, d := range f.addDirs {
		if err := ws.AddDir(d); err != nil {
			return 0, usagef("--add-dir %s: %v", d, err)
		}
	}
	// Every config and settings file is read, and must be whole, before anything
	// else runs (a model call, a hook): fail closed.
	var report configReport
	rules, rerrs, err := loadRules(ws.Root(), f)
	if err != nil {
		return 0, err
	}
	report.rules(rerrs)
	hooks, herrs, trustWarning := loadHooksTrusted(ws.Root(), f.trustProjectHooks)
	report.hooks(herrs)
	if trustWarning != "" {
		report.warnings = append(report.warnings, trustWarning)
	}
	var sandboxWarnings strings.Builder
	sandboxPolicy := sandboxPolicyFor(ws.Root(), sandboxFlags{NoSandbox: f.noSandbox, AllowNetwork: f.allowNetwork}, &sandboxWarnings)
	report.tables()
	report.warningLines(sandboxWarnings.String())
	if err := report.failure(); err != nil {
		return 0, err
	}
	for _, w := range report.warnings {
		fmt.Fprintf(stderr, "pincer: warning: %s\n", w)
	}
	mc, err := chooseModel(f.model, f.baseURL, f.session, f.cont, stderr)
	if err != nil {
		return 0, err
	}
	spillRoot := toolResultsDir()
	registry := tools.Default()
	systemPrompt := buildSystemPrompt(ws, registry, mc.ID())
	home, _ := os.UserHomeDir()
	store, err := openStore()
	if err != nil {
		return 0, err
	}
	defer store.Close()

	ag, err := agent.New(agent.Config{
		Store: store, Provider: newProvider(mc, f.stall), Model: mc.Model, ModelName: mc.ID(),
		Tools: registry, Workspace: ws, Sandbox: sandboxPolicy,
		Rules: rules, Hooks: hooks, Home: home, SpillRoot: spillRoot, Redactor: sessionRedactor(mc),
		DynamicPrompt: func() string { return dynamicPrompt(ws, registry, mc.ID()) },
		Instructions:  func() string { return instructionsText(ws) }, PermissionMode: mode, MaxIterations: f.maxTurns,
		SystemPrompt: systemPrompt,
	})
	if err != nil {
		return 0, err
	}
	if m, ok := catalog.Lookup(mc.Provider, mc.Model); ok {
		ag.SetModelInfo(m.ContextWindow, func(u message.Usage) *float64 { return m.Cost(u, mc.API != "anthropic") })
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()

	if strings.TrimSpace(input) == "/context" {
		return 0, showContext(ctx, ag, store, f, ws, mc, systemPrompt, stdout)
	}
	sessionID, after, err := pickSession(ctx, ag, store, f, ws.Root())
	if err != nil {
		return 0, err
	}
	source := "startup"
	if after > 0 {
		source = "resume"
	}
	ag.StartSession(ctx, sessionID, source)
	code := headless.Run(ctx, ag, sessionID, input, headless.Options{
		Format: format, Stdout: stdout, Stderr: stderr, After: after,
	})
	ag.EndSession(context.WithoutCancel(ctx), sessionID, "exit")
	return code, nil
}

// pickSession returns the session to run in (new, --continue or --session) and the
// log cursor from which stream-json prints.
func pickSession(ctx context.Context, ag *agent.Agent, store persist.Store, f *runFlags, cwd string) (string, uint64, error) {
	if f.cont || f.session != "" {
		s, err := findSession(ctx, store, f.session, f.cont, cwd)
		if err != nil {
			return "", 0, err
		}
		if s.Cwd != cwd {
			return "", 0, fmt.Errorf("session %s belongs to %s: run pincer from that directory to continue it", s.ID, s.Cwd)
		}
		after, err := store.LastEventSequence(ctx, s.ID)
		return s.ID, after, err
	}
	s, err := ag.CreateSession(ctx)
	if err != nil {
		return "", 0, err
	}
	return s.ID, 0, nil
}

// readPrompt builds the prompt as `claude -p` does: the PROMPT arguments, with piped
// standard input appended after a blank line; a lone "-" (or no PROMPT) reads the
// prompt from standard input alone.
func readPrompt(pos []string, stdin io.Reader) (string, error) {
	arg := strings.Join(pos, " ")
	if arg == "-" {
		arg = ""
	}
	var piped string
	if !isTerminal(stdin) {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return "", fmt.Errorf("read prompt from stdin: %w", err)
		}
		piped = strings.TrimRight(string(b), "\n")
	}
	var prompt string
	switch {
	case strings.TrimSpace(arg) != "" && strings.TrimSpace(piped) != "":
		prompt = arg + "\n\n" + piped
	case strings.TrimSpace(arg) != "":
		prompt = arg
	default:
		prompt = piped
	}
	if strings.TrimSpace(prompt) == "" {
		return "", usagef("no prompt: pass PROMPT or pipe it on standard input")
	}
	return prompt, nil
}

// isTerminal reports whether r is a terminal (nothing piped); a nil reader counts as one.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if r == nil || (ok && f == nil) {
		return true
	}
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// workspaceHere is the workspace rooted at the current directory.
func workspaceHere() (*sandbox.Workspace, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	return sandbox.NewWorkspace(cwd)
}

// buildSystemPrompt assembles the system prompt a new session in ws gets.
func buildSystemPrompt(ws *sandbox.Workspace, registry *tools.Registry, model string) string {
	home, _ := os.UserHomeDir()
	return prompt.Build(prompt.Env{Cwd: ws.Root(), Date: time.Now(), PincerHome: os.Getenv("PINCER_HOME"),
		Home: home, ToolNames: registry.Names(), ModelName: model})
}

// envOrDefault returns the environment variable k, or def when it is empty.
func envOrDefault(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// loadRules merges the permission rules of the config files with
// --allowed-tools and --disallowed-tools (every use of either adds its rules; a
// bad rule there is a usage error). The files' problems are returned in
// fileErrs for the caller's configReport: a fatal one stops pincer.
func loadRules(workspace string, f *runFlags) (rules permission.RuleSet, fileErrs []error, err error) {
	rules, fileErrs = permission.LoadRules(workspace, os.Getenv("PINCER_HOME"))
	for _, v := range f.allowedTools {
		allow, err := permission.ParseRuleList(v, "--allowed-tools")
		if err != nil {
			return rules, fileErrs, usagef("%v", err) // the error names the flag
		}
		rules = rules.Add(permission.Allow, allow...)
	}
	for _, v := range f.disallowedTools {
		deny, err := permission.ParseRuleList(v, "--disallowed-tools")
		if err != nil {
			return rules, fileErrs, usagef("%v", err)
		}
		rules = rules.Add(permission.Deny, deny...)
	}
	return rules, fileErrs, nil
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// dynamicPrompt recomputes the dynamic segments of the system prompt (environment,
// git status, instructions) for each model call.
func dynamicPrompt(ws *sandbox.Workspace, registry *tools.Registry, model string) string {
	_, dyn, _ := prompt.Split(buildSystemPrompt(ws, registry, model))
	return dyn
}

// instructionsText re-reads the project instructions (for the view after a
// compaction).
func instructionsText(ws *sandbox.Workspace) string {
	home, _ := os.UserHomeDir()
	in, err := prompt.LoadInstructions(ws.Root(), os.Getenv("PINCER_HOME"), home)
	if err != nil {
		return ""
	}
	return in.Text
}

// toolResultsDir is the root under which long tool outputs are saved
// ($data/tool-results/<session>); "" when it cannot be made (outputs are then cut
// in the middle instead). The root itself is not part of the workspace: the agent
// adds each session's own directory when that session runs tools, so a session
// (and its sandboxed commands) never sees another session's outputs.
func toolResultsDir() string {
	dir, err := dataDir()
	if err != nil {
		return ""
	}
	root := filepath.Join(dir, "tool-results")
	if os.MkdirAll(root, 0o700) != nil {
		return ""
	}
	return root
}

// lookupWindow is the model's context window from the catalog.
func lookupWindow(mc modelChoice) (int64, bool) {
	m, ok := catalog.Lookup(mc.Provider, mc.Model)
	return m.ContextWindow, ok && m.ContextWindow > 0
}

// chooseModel resolves the model of a run: --model, else the model stored with the
// session being continued, else PINCER_MODEL, default_model in config.toml, or one
// detected from the environment (resolveModel). Config warnings go to stderr.
func chooseModel(flagModel, baseURL, session string, cont bool, stderr io.Writer) (modelChoice, error) {
	model := flagModel
	if model == "" && (cont || session != "") {
		if st, err := openExistingStore(); err == nil {
			cwd, _ := os.Getwd()
			if ws, werr := sandbox.NewWorkspace(cwd); werr == nil {
				cwd = ws.Root()
			}
			model = sessionModel(context.Background(), st, session, cont, cwd)
			st.Close()
		}
	}
	mc, err := resolveModel(model, baseURL, os.Getenv)
	if err != nil && model != flagModel { // the stored model no longer resolves: fall back
		stored, storedErr := model, err
		if mc, err = resolveModel(flagModel, baseURL, os.Getenv); err != nil {
			err = fmt.Errorf("the session ran on %s, which does not resolve now (%v); pass --base-url for it, or --model", stored, storedErr)
		}
	}
	configWarnings(stderr, mc.Warnings)
	return mc, err
}
