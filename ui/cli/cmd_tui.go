package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"pincer/core/agent"
	"pincer/core/config/modelflow"
	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/core/provider/catalog"
	"pincer/persist"
	"pincer/themes"
	"pincer/tools"
	"pincer/ui/tui"
)

// tuiFlags are the flags of `pincer` (the workbench); the shared ones live in
// runFlags so that the helpers of `pincer run` apply unchanged.
type tuiFlags struct {
	runFlags
	theme string
}

func newTUIFlagSet() (*flag.FlagSet, *tuiFlags) {
	f := &tuiFlags{}
	fs := flag.NewFlagSet("pincer", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.model, "model", "", "model as PROVIDER/MODEL (default $PINCER_MODEL or "+defaultModel+")")
	fs.StringVar(&f.baseURL, "base-url", "", "base URL of an OpenAI-compatible API (…/v1)")
	fs.StringVar(&f.mode, "permission-mode", "default", "default | acceptEdits | plan | bypassPermissions | dontAsk")
	fs.BoolVar(&f.cont, "continue", false, "continue the most recent session in this directory")
	fs.BoolVar(&f.cont, "c", false, "short for --continue")
	fs.StringVar(&f.session, "session", "", "continue the session with this ID")
	fs.StringVar(&f.theme, "theme", "", "colour theme: dark | light (NO_COLOR turns colours off)")
	fs.Var(&f.allowedTools, "allowed-tools", `permission rules to allow, e.g. "Bash(npm test:*) Read" (repeatable)`)
	fs.Var(&f.disallowedTools, "disallowed-tools", `permission rules to deny, e.g. "Bash(git push:*)" (repeatable: every use adds)`)
	fs.BoolVar(&f.noSandbox, "no-sandbox", false, "run commands without the OS sandbox; the env allowlist still applies")
	fs.BoolVar(&f.allowNetwork, "allow-network", false, "let sandboxed commands reach the network (off by default; like `network = true` in your config.toml)")
	fs.Var(&f.addDirs, "add-dir", "another directory the tools may use (repeatable)")
	fs.BoolVar(&f.trustProjectHooks, "trust-project-hooks", false, "run the hooks of this project's .pincer/config.toml and .claude/settings*.json, and remember that until they change (see pincer trust)")
	fs.DurationVar(&f.stall, "stall-timeout", 90*time.Second, "fail a stream that sends no bytes for this long")
	return fs, f
}

// cmdTUI is `pincer` with no command: the full-screen workbench in the current
// directory. The first frame comes before the store is open (Badger opens in
// the background, "opening store…" shows meanwhile). The terminal is restored
// on exit, on a panic and on SIGTERM, SIGHUP or SIGINT.
func cmdTUI(args []string, stdout, stderr io.Writer) (code int, err error) {
	fs, f := newTUIFlagSet()
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "Usage: pincer [flags]   (the workbench; \"pincer run PROMPT\" runs one turn headless)")
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return 0, err
		}
		return 0, usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return 0, usagef("unexpected argument %q: the workbench takes no prompt (use \"pincer run PROMPT\", or see \"pincer help\")", fs.Arg(0))
	}
	mode, err := permission.ParseMode(f.mode)
	if err != nil {
		return 0, usageError{err.Error()}
	}
	if _, err := themes.ByName(f.theme); err != nil {
		return 0, usagef("--theme: %v", err)
	}
	if f.cont && f.session != "" {
		return 0, usagef("--continue and --session cannot be used together")
	}
	var warnings []string
	modelName := f.model
	var prov provider.Provider
	mc, err := resolveModel(f.model, f.baseURL, os.Getenv)
	var ue usageError
	switch {
	case errors.As(err, &ue):
		return 0, err
	case err != nil: // no key: the workbench still opens, to browse and to say why it cannot send
		warnings = append(warnings, err.Error())
		if modelName == "" {
			modelName = envOrDefault("PINCER_MODEL", defaultModel)
		}
	default:
		modelName, prov = mc.ID(), newProvider(mc, f.stall)
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
	var report configReport
	rules, rerrs, err := loadRules(ws.Root(), &f.runFlags)
	if err != nil {
		return 0, err
	}
	report.rules(rerrs)
	var sandboxWarnings bytes.Buffer // printed by the helper as "pincer: warning: ..." lines
	sandboxPolicy := sandboxPolicyFor(ws.Root(), sandboxFlags{NoSandbox: f.noSandbox, AllowNetwork: f.allowNetwork}, &sandboxWarnings)
	report.tables()
	report.warningLines(sandboxWarnings.String())
	hooks, herrs, trustWarning := loadHooksTrusted(ws.Root(), f.trustProjectHooks)
	report.hooks(herrs)
	if trustWarning != "" {
		report.warnings = append(report.warnings, trustWarning)
	}
	warnings = append(warnings, report.warnings...)
	home, _ := os.UserHomeDir()
	registry := tools.Default()
	// A broken configuration fails closed: the workbench opens (to show why and to
	// browse sessions) but every tool call is denied, naming the problems.
	var configErrors []string
	if report.failure() != nil {
		configErrors = dedupe(report.fatal)
		rules = denyAll(rules, registry, configErrors)
		hooks = nil // nothing of a half-read configuration runs
	}
	window, _ := lookupWindow(mc)

	keys, kwarns := loadKeyMap(ws.Root())
	warnings = append(warnings, kwarns...)
	wb, err := tui.New(tui.Options{Theme: themes.FromEnv(f.theme), Model: modelName, Mode: string(mode),
		Cwd: ws.Root(), ContextWindow: window, Keys: keys, Models: tuiModelHooks()})
	if err != nil {
		return 0, err
	}
	defer func() {
		if r := recover(); r != nil {
			wb.Abort()
			fmt.Fprintf(stderr, "pincer: internal error: %v\n%s", r, debug.Stack())
			code, err = 1, nil
		}
	}()
	quit := make(chan struct{})
	defer close(quit)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP, os.Interrupt)
	defer signal.Stop(sigs)
	stoppedBy := make(chan os.Signal, 1)
	go func() {
		select {
		case sig := <-sigs:
			stoppedBy <- sig
			wb.Stop()
		case <-quit:
		}
	}()
	for _, w := range warnings {
		wb.Notify("warning", w)
	}
	for _, e := range configErrors {
		wb.Notify("error", "configuration: "+e+" — every tool call is denied until this is fixed and pincer restarted")
	}

	openCtx, cancelOpen := context.WithCancel(context.Background())
	type opened struct {
		store persist.Store
		ag    *agent.Agent
	}
	openDone := make(chan opened, 1)
	go func() {
		var o opened
		defer func() { openDone <- o }()
		store, err := openStore()
		if err != nil {
			wb.SetStoreState("store: " + err.Error())
			return
		}
		o.store = store
		ag, err := agent.New(agent.Config{
			Store: store, Provider: prov, Model: mc.Model, ModelName: modelName,
			Tools: registry, Workspace: ws, Sandbox: sandboxPolicy,
			Rules: rules, Hooks: hooks, Home: home, SpillRoot: toolResultsDir(), Redactor: sessionRedactor(mc),
			DynamicPrompt: func() string { return dynamicPrompt(ws, registry, modelName) },
			Instructions:  func() string { return instructionsText(ws) }, PermissionMode: mode,
			SystemPrompt: buildSystemPrompt(ws, registry, modelName), Approver: wb.Approver(),
		})
		if err != nil {
			wb.SetStoreState(err.Error())
			return
		}
		if m, ok := catalog.Lookup(mc.Provider, mc.Model); ok {
			ag.SetModelInfo(m.ContextWindow, func(u message.Usage) *float64 { return m.Cost(u, mc.API != "anthropic") })
		}
		sessionID, after, err := pickSession(openCtx, ag, store, &f.runFlags, ws.Root())
		if err != nil {
			wb.SetStoreState(err.Error())
			return
		}
		source := "startup"
		if after > 0 {
			source = "resume"
		}
		ag.StartSession(openCtx, sessionID, source)
		o.ag = ag
		wb.Attach(ag, sessionID)
	}()

	runErr := wb.Run()
	cancelOpen()
	o := <-openDone
	if o.ag != nil {
		o.ag.EndSession(context.Background(), wb.SessionID(), "exit")
	}
	if o.store != nil {
		_ = o.store.Close()
	}
	for _, w := range warnings { // the alternate screen hid them
		fmt.Fprintf(stderr, "pincer: warning: %s\n", w)
	}
	if runErr != nil {
		return 1, runErr
	}
	select {
	case sig := <-stoppedBy: // as `pincer run`: a signal is a failure exit
		return 1, fmt.Errorf("stopped by %v (session %s; continue it with --continue)", sig, wb.SessionID())
	default:
	}
	return 0, nil
}

// tuiModelHooks give the workbench's /model commands what `pincer model` uses:
// the configuration reloaded for each command, the secret store and the lister
// of /model refresh.
func tuiModelHooks() *tui.ModelHooks {
	return &tui.ModelHooks{
		Env: func() (*modelflow.Env, []error) {
			cfg, warns := loadModelConfig(os.Getenv)
			env := &modelflow.Env{Config: cfg, Getenv: os.Getenv}
			if s := openSecrets(os.Getenv); s != nil {
				env.Secrets = s
			}
			return env, warns
		},
		List: listModels,
	}
}
