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
	"runtime/debug"
	"slices"
	"strings"
	"syscall"

	"pincer/core/agent"
	"pincer/core/app"
	"pincer/core/permission"
	"pincer/themes"
	"pincer/ui/tui"
)

// tuiFlags are the flags of `pincer` (the workbench): the shared ones and --theme.
type tuiFlags struct {
	sessionFlags
	theme       string
	allowBypass bool
}

func newTUIFlagSet() (*flag.FlagSet, *tuiFlags) {
	f := &tuiFlags{}
	fs := flag.NewFlagSet("pincer", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addSessionFlags(fs, &f.sessionFlags)
	fs.StringVar(&f.theme, "theme", "", "colour theme: dark | light (NO_COLOR turns colours off)")
	fs.BoolVar(&f.allowBypass, "allow-dangerously-skip-permissions", false, "let Shift+Tab and /mode choose bypassPermissions (as Claude Code's flag; also allowed when started with --permission-mode bypassPermissions)")
	return fs, f
}

// workbenchOptions are the workbench's Options: the shared flags, and a workbench
// that opens without a model (to browse sessions, saying why it cannot send) and
// fails closed on a broken configuration instead of refusing to start.
func (f *tuiFlags) workbenchOptions(fs *flag.FlagSet) (app.Options, error) {
	opts, err := f.options(fs)
	if err != nil {
		return opts, err
	}
	if _, err := themes.ByName(f.theme); err != nil {
		return opts, usagef("--theme: %s", strings.TrimPrefix(err.Error(), "themes: "))
	}
	opts.ModelOptional, opts.FailClosed, opts.Command = true, true, "pincer"
	return opts, nil
}

// cmdTUI is `pincer` with no command: the full-screen workbench in the current
// directory; a prompt among its arguments (`pincer "fix it"`, words joined by
// spaces) is sent as the first turn once the store is open. The first frame
// comes before the store is open (Badger opens in the background, "opening
// store…" shows meanwhile). The terminal is restored
// on exit, on a panic and on SIGTERM, SIGHUP or SIGINT. A configuration that does
// not parse fails closed: the workbench opens (to show why and to browse
// sessions) but every tool call is denied, naming the problems.
// startupNotice is one notice the workbench opens with.
type startupNotice struct{ level, text string }

// startupNotices are the workbench's opening notices, in order: the
// configuration's fatal errors first (what else is wrong may follow from
// them: a new user r21 was sent to /model by a "no model" notice that a
// typo in config.toml caused), then why no turn can be sent (modelErr: no
// model, no key; the workbench still opens to browse), then the warnings.
func startupNotices(modelErr error, configErrors, warnings []string) []startupNotice {
	var out []startupNotice
	for _, e := range configErrors {
		out = append(out, startupNotice{"error", "configuration: " + e + " — every tool call is denied until this is fixed and pincer restarted"})
	}
	if modelErr != nil {
		msg := modelErr.Error()
		switch {
		case errors.Is(modelErr, app.ErrNoModel) && len(configErrors) > 0:
			msg = noModelBrokenConfig
		case errors.Is(modelErr, app.ErrNoModel):
			msg = app.NoModelInWorkbench
		}
		out = append(out, startupNotice{"warning", msg})
	}
	for _, w := range warnings {
		out = append(out, startupNotice{"warning", w})
	}
	return out
}

// noModelBrokenConfig is the workbench's no-model notice when the
// configuration does not parse: the model it would name is unknown, and
// /model, which writes the same file, would fail on it.
const noModelBrokenConfig = "no model: the configuration does not parse (the error above), so the model and providers it names are unknown — fix that line and restart pincer (/model cannot write a file that does not parse)"

func cmdTUI(args []string, stdout, stderr io.Writer) (code int, err error) {
	fs, f := newTUIFlagSet()
	words, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "Usage: pincer [flags] [PROMPT]   (the workbench, sending PROMPT as it opens; \"pincer -p PROMPT\" or \"pincer run PROMPT\" runs one turn headless)")
			fs.SetOutput(stdout)
			fs.PrintDefaults()
		}
		return 0, err
	}
	prompt := strings.TrimSpace(strings.Join(words, " "))
	if err := tui.CheckTerminal(); err != nil { // before any work: a script wants `pincer run`
		return 0, usagef("no terminal: use `pincer run` for scripts")
	}
	opts, err := f.workbenchOptions(fs)
	if err != nil {
		return 0, err
	}
	setup, err := app.Prepare(opts)
	if err != nil {
		return 0, err
	}
	warnings := slices.Clone(setup.Warnings)
	window, _, _ := app.ModelInfo(setup.Model)
	keys, kwarns := loadKeyMap(setup.Config)
	warnings = append(warnings, kwarns...)
	bench, berrs := setup.Config.Workbench()
	for _, e := range berrs {
		warnings = append(warnings, e.Error())
	}
	layoutFile := "" // the chosen layout is kept under the data directory ($PINCER_HOME/data)
	if dir := setup.Config.Paths.Data; dir != "" {
		layoutFile = filepath.Join(dir, "workbench-layout")
	}
	modelName := setup.Model.ID()
	if modelName == "" {
		modelName = "no model"
	}
	wb, err := tui.New(tui.Options{Theme: themes.FromEnv(f.theme), Model: modelName, Mode: string(opts.Mode),
		Cwd: setup.Workspace.Root(), ContextWindow: window, Keys: keys,
		WideColumns: bench.WideColumns, LayoutFile: layoutFile, Prompt: prompt,
		KeepInputFocus: !bench.ApprovalFocus(), Commands: setup.Commands,
		AllowBypass: f.allowBypass || opts.Mode == permission.ModeBypass})
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
			wb.StopFor(agent.SignalCause(sig)) // the running turn reads "cancelled: terminal closed (SIGHUP)"
		case <-quit:
		}
	}()
	for _, n := range startupNotices(setup.ModelErr, setup.ConfigErrors, warnings) {
		wb.Notify(n.level, n.text)
	}

	openCtx, cancelOpen := context.WithCancel(context.Background())
	openDone := make(chan *app.Run, 1)
	var be *app.Backend // set before openDone gets the run
	go func() {         // the store opens behind the first frame
		approvals := app.NewApprovalQueue()
		run, err := setup.Start(openCtx, approvals)
		if err != nil {
			wb.SetStoreState(err.Error())
			openDone <- nil
			return
		}
		run.Agent.StartSession(openCtx, run.SessionID, run.Source())
		be = app.NewBackend(run, approvals)
		be.ModelEnv, be.Memory = app.DefaultModelEnv, run.Memory
		wb.Attach(be, run.SessionID)
		openDone <- run
	}()

	runErr := wb.Run()
	cancelOpen()
	if run := <-openDone; run != nil {
		ids := wb.SessionIDs() // every tab's session ends (its SessionEnd hooks, on its agent)
		if len(ids) == 0 {
			ids = []string{wb.SessionID()}
		}
		for _, id := range ids {
			be.EndSession(context.Background(), id, "exit")
		}
		_, _ = run.DiscardIfUnused(context.Background())
		_ = run.Close()
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
