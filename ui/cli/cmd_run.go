package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"pincer/core/agent"
	"pincer/core/app"
	"pincer/ui/headless"
)

// runFlags are the flags of `pincer run`: the shared ones and run's own.
type runFlags struct {
	sessionFlags
	format                string
	maxTurns              int
	printPrompt, noDaemon bool
}

func newRunFlagSet() (*flag.FlagSet, *runFlags) {
	f := &runFlags{}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are printed as one line by Main; --help prints usage
	addSessionFlags(fs, &f.sessionFlags)
	fs.StringVar(&f.format, "output-format", "text", "text | json | stream-json")
	fs.IntVar(&f.maxTurns, "max-turns", agent.DefaultMaxIterations, "most model calls in this turn")
	fs.BoolVar(&f.noDaemon, "no-daemon", false, "open the store in this process, not through the store daemon (it then has it to itself)")
	fs.BoolVar(&f.printPrompt, "print-system-prompt", false, "print the system prompt a new session would get, and exit")
	fs.Usage = func() {} // parse errors are one line; --help is answered by cmdRun
	return fs, f
}

// cmdRun is `pincer run`: one headless turn. With --output-format json or
// stream-json a run that fails before its turn still prints one result object.
func cmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int, err error) {
	fs, f := newRunFlagSet()
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
	opts, err := f.options(fs)
	if err != nil {
		return 0, err
	}
	opts.Command = "pincer run"
	format, err := headless.ParseFormat(f.format)
	if err != nil {
		return 0, usageError{Msg: err.Error()}
	}
	defer func() {
		if err != nil && !errors.Is(err, flag.ErrHelp) {
			headless.WriteFailure(stdout, format, "", err)
		}
	}()
	if f.maxTurns < 1 {
		return 0, usagef("--max-turns must be at least 1")
	}
	opts.MaxIterations = f.maxTurns
	if f.printPrompt {
		return printSystemPrompt(opts, stdout, stderr)
	}
	input, err := readPrompt(pos, stdin)
	if err != nil {
		return 0, err
	}
	if f.noDaemon {
		os.Setenv("PINCER_NO_DAEMON", "1")
	}
	// Every config and settings file is read, and must be whole, before anything
	// else runs (a model call, a hook): fail closed.
	setup, err := app.Prepare(opts)
	if setup != nil {
		for _, w := range setup.Warnings {
			fmt.Fprintf(stderr, "pincer: warning: %s\n", w)
		}
	}
	if err != nil {
		return 0, err
	}
	if err := refuseRunSlash(input, runSlashCheckFor(setup)); err != nil { // a /name typo costs no model call
		return 0, err
	}
	ctx, stop, started := signalContext()
	defer stop()
	if strings.TrimSpace(input) == "/context" {
		return 0, showContext(ctx, setup, stdout)
	}
	run, err := setup.Start(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer run.Close()
	run.WaitMCP(ctx) // headless waits (bounded, MCP_TIMEOUT) for its MCP servers before the first model call
	for _, w := range run.MCPWarnings() {
		fmt.Fprintf(stderr, "pincer: warning: %s\n", w)
	}
	inv, isInv := setup.Invocation(input)                          // a skill, custom command or MCP prompt: /NAME args
	if err := refuseMCPPrompt(input, isInv, run.MCP); err != nil { // its server not ready: no model call
		return 0, err
	}
	run.Agent.StartSession(ctx, run.SessionID, run.Source())
	started() // from here a signal stops the turn, which keeps its transcript
	hopts := headless.Options{Format: format, Stdout: stdout, Stderr: stderr, After: run.After}
	if isInv {
		hopts.Turn = &inv
	}
	code = headless.Run(ctx, run.Agent, run.SessionID, input, hopts)
	run.Agent.EndSession(context.WithoutCancel(ctx), run.SessionID, "exit")
	// --worktree: the branch keeps what the run changed (one commit).
	if _, err := run.CommitWorktree(context.WithoutCancel(ctx)); err != nil {
		fmt.Fprintf(stderr, "pincer: warning: %v\n", err)
	}
	return code, nil
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
