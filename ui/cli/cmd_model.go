package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"golang.org/x/term"

	"pincer/core/app"
	"pincer/core/config"
	"pincer/core/config/modelflow"
)

const modelUsage = `Usage: pincer model [COMMAND]

  configure [PROVIDER]          set up a provider: base URL, model names, API key, default
                                model (the default command); saved once, at the end
  status                        providers, their readiness and where their keys come from
  list                          every provider/model (* the default, > the session's model)
  switch [MODEL]                another model for one session (--session ID or --continue): of its
                                provider, or PROVIDER/MODEL of another configured one; the default is unchanged
  default PROVIDER/MODEL        the global default model
  refresh [PROVIDER...]         ask providers for their models (GET /models)
  add-model PROVIDER MODEL      add a model name to a provider's list
  set PROVIDER api-key [KEY]    store a provider's API key (asked, hidden, without KEY)

Flags: --session ID, --continue (-c): the session of switch and list.
Keys live in PINCER_SECRET_COMMAND's output, the OS keyring or an encrypted file, never
in config.toml; OPENAI_API_KEY, ANTHROPIC_API_KEY, ... override them for a run.
`

// cmdModel is `pincer model ...`: the /model command family on the command line,
// over core/config/modelflow. Prompts go to stderr; results to stdout.
func cmdModel(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("model", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var sessionID string
	var cont bool
	fs.StringVar(&sessionID, "session", "", "the session of switch and list")
	fs.BoolVar(&cont, "continue", false, "the newest session in this directory")
	fs.BoolVar(&cont, "c", false, "short for --continue")
	pos, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) || (len(pos) > 0 && (pos[0] == "help" || pos[0] == "-h")) {
		fmt.Fprint(stdout, modelUsage)
		return 0, flag.ErrHelp
	}
	if err != nil {
		return 0, err
	}
	if cont && sessionID != "" {
		return 0, usagef("--continue and --session cannot be used together")
	}
	sub, rest := "configure", []string(nil)
	if len(pos) > 0 {
		sub, rest = pos[0], pos[1:]
	}
	cfg, warns := app.LoadModelConfig(os.Getenv)
	for _, w := range warns {
		fmt.Fprintf(stderr, "pincer: warning: %v\n", w)
	}
	env := &modelflow.Env{Config: cfg, Getenv: os.Getenv, Out: stdout, List: app.ListModels, Problems: config.Fatal(warns)}
	if s := app.OpenSecrets(os.Getenv); s != nil {
		env.Secrets = s
	}
	// No signal handling here: Ctrl+C at a prompt ends the process, which has saved
	// nothing yet (AskSecret restores the terminal first).
	ctx := context.Background()
	prompter := newTermPrompter(stdin, stderr)
	nargs := func(min, max int, form string) error {
		if len(rest) < min || len(rest) > max {
			return usagef("usage: pincer model %s", form)
		}
		return nil
	}
	switch sub {
	case "configure":
		if err = nargs(0, 1, "configure [PROVIDER]"); err == nil {
			_, err = modelflow.Configure(ctx, env, prompter, first(rest))
		}
	case "status":
		if err = nargs(0, 0, "status"); err == nil {
			modelflow.Status(ctx, env, stdout)
		}
	case "list":
		if err = nargs(0, 0, "list [--session ID | --continue]"); err == nil {
			current := ""
			if sessionID != "" || cont {
				s, serr := withSession(ctx, sessionID, cont, func(app.Store, app.SessionRecord) error { return nil })
				if serr != nil {
					return 0, serr
				}
				current = s.Model
			}
			modelflow.List(ctx, env, stdout, current)
		}
	case "switch":
		if err = nargs(0, 1, "switch [MODEL] --session ID | --continue"); err == nil {
			err = switchSession(ctx, env, prompter, sessionID, cont, first(rest), stdout)
		}
	case "default":
		if err = nargs(1, 1, "default PROVIDER/MODEL"); err == nil {
			err = modelflow.SetDefault(ctx, env, rest[0])
		}
	case "refresh":
		err = modelflow.Refresh(ctx, env, rest, app.ListModels)
	case "add-model":
		if err = nargs(2, 2, "add-model PROVIDER MODEL"); err == nil {
			err = modelflow.AddModel(env, rest[0], rest[1])
		}
	case "set":
		if err = nargs(2, 3, "set PROVIDER api-key [KEY]"); err == nil {
			if rest[1] != "api-key" {
				return 0, usagef("model set: only api-key can be set (got %q); use configure for the rest", rest[1])
			}
			if len(rest) == 3 {
				fmt.Fprintln(stderr, "pincer: note: a key on the command line may stay in your shell history; `pincer model set "+rest[0]+" api-key` asks for it hidden")
			}
			err = modelflow.SetAPIKey(ctx, env, prompter, rest[0], strings.Join(rest[2:], ""))
		}
	default:
		return 0, usagef("unknown model command %q (see \"pincer model help\")", sub)
	}
	if errors.Is(err, modelflow.ErrCancelled) {
		fmt.Fprintln(stderr, "pincer: cancelled: nothing was saved")
		return 1, nil
	}
	if errors.Is(err, modelflow.ErrBadArgument) {
		return 0, usageError{Msg: err.Error()}
	}
	if err != nil {
		return 0, err
	}
	return 0, nil
}

// first is list[0], or "".
func first(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return list[0]
}

// switchSession is `pincer model switch`: pick a model of the session's provider (or name one of another configured provider)
// and store it as the session's model, holding the session's lease while writing so
// that no running turn is overwritten.
func switchSession(ctx context.Context, env *modelflow.Env, p modelflow.Prompter, id string, cont bool, arg string, stdout io.Writer) error {
	if id == "" && !cont {
		return usagef("switch changes one session's model: pass --session ID or --continue (`pincer model default PROVIDER/MODEL` changes the global default)")
	}
	_, err := withSession(ctx, id, cont, func(store app.Store, s app.SessionRecord) error {
		next, err := modelflow.Switch(env, p, s.Model, arg)
		if err != nil {
			return err
		}
		if err := app.SetSessionModel(ctx, store, s.ID, next); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Session %s now uses %s (the default is unchanged).\n", s.ID, next)
		return nil
	})
	return err
}

// withSession opens the store, finds the session (--session ID, or with --continue
// the newest one in this directory) and runs f on it.
func withSession(ctx context.Context, id string, cont bool, f func(app.Store, app.SessionRecord) error) (app.SessionRecord, error) {
	store, err := app.OpenExistingStore()
	if errors.Is(err, app.ErrNoStore) {
		return app.SessionRecord{}, errors.New("no sessions yet (see \"pincer sessions\")")
	}
	if err != nil {
		return app.SessionRecord{}, err
	}
	defer store.Close()
	cwd, err := os.Getwd()
	if err != nil {
		return app.SessionRecord{}, err
	}
	s, err := app.FindSession(ctx, store, id, cont, cwd)
	if err != nil {
		return s, err
	}
	return s, f(store, s)
}

// termPrompter asks on a terminal, or reads answers line by line from a pipe.
// End of input is ErrCancelled. A hidden answer is read with echo off when stdin is
// a terminal; an interrupt there restores the terminal and exits (nothing has been
// saved before a flow's end).
type termPrompter struct {
	in  *bufio.Reader
	fd  int // the terminal's descriptor, -1 when stdin is not a terminal
	out io.Writer
}

// newTermPrompter prompts on out and reads stdin.
func newTermPrompter(stdin io.Reader, out io.Writer) *termPrompter {
	p := &termPrompter{in: bufio.NewReader(stdin), fd: -1, out: out}
	if f, ok := stdin.(*os.File); ok && f != nil && term.IsTerminal(int(f.Fd())) {
		p.fd = int(f.Fd())
	}
	return p
}

// line reads one answer; end of input with nothing typed is ErrCancelled.
func (p *termPrompter) line() (string, error) {
	s, err := p.in.ReadString('\n')
	if err != nil && (s == "" || !errors.Is(err, io.EOF)) {
		return "", modelflow.ErrCancelled
	}
	return strings.TrimSpace(s), nil
}

// Ask shows def in brackets; an empty answer is def.
func (p *termPrompter) Ask(q, def string) (string, error) {
	if def != "" {
		fmt.Fprintf(p.out, "%s [%s]: ", q, def)
	} else {
		fmt.Fprintf(p.out, "%s: ", q)
	}
	s, err := p.line()
	if err == nil && s == "" {
		s = def
	}
	return s, err
}

// AskSecret reads without echo on a terminal; from a pipe it reads a line.
func (p *termPrompter) AskSecret(q string) (string, error) {
	fmt.Fprintf(p.out, "%s: ", q)
	if p.fd < 0 {
		return p.line()
	}
	old, err := term.GetState(p.fd)
	if err != nil {
		return "", err
	}
	sig := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	defer close(done)
	go func() {
		select {
		case <-sig:
			_ = term.Restore(p.fd, old)
			fmt.Fprintln(p.out, "\npincer: cancelled: nothing was saved")
			os.Exit(130)
		case <-done:
		}
	}()
	b, err := term.ReadPassword(p.fd)
	fmt.Fprintln(p.out)
	if err != nil {
		return "", modelflow.ErrCancelled
	}
	defer clear(b)
	return strings.TrimSpace(string(b)), nil
}

// Confirm accepts y/yes; anything else is no.
func (p *termPrompter) Confirm(q string) (bool, error) {
	fmt.Fprintf(p.out, "%s [y/N]: ", q)
	s, err := p.line()
	s = strings.ToLower(s)
	return s == "y" || s == "yes", err
}

// Choose lists the options numbered from 1 and takes a number or an option's
// text; an empty answer takes def (shown as "[N]" and marked "(default)"),
// or cancels when def < 0; three invalid answers cancel.
func (p *termPrompter) Choose(q string, options []string, def int) (int, error) {
	fmt.Fprintln(p.out, q+":")
	for i, o := range options {
		mark := ""
		if i == def {
			mark = "  (default)"
		}
		fmt.Fprintf(p.out, "  %d) %s%s\n", i+1, o, mark)
	}
	for try := 0; try < 3; try++ {
		if def >= 0 && def < len(options) {
			fmt.Fprintf(p.out, "Choose 1-%d [%d]: ", len(options), def+1)
		} else {
			fmt.Fprintf(p.out, "Choose 1-%d (Enter cancels): ", len(options))
		}
		s, err := p.line()
		if err != nil {
			return 0, modelflow.ErrCancelled
		}
		if s == "" {
			if def >= 0 && def < len(options) {
				return def, nil
			}
			return 0, modelflow.ErrCancelled
		}
		if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= len(options) {
			return n - 1, nil
		}
		for i, o := range options {
			if s == o || s == strings.TrimSuffix(o, " · current") {
				return i, nil
			}
		}
		fmt.Fprintf(p.out, "%q is not one of the choices.\n", s)
	}
	return 0, modelflow.ErrCancelled
}

// configWarnings prints configuration warnings (ModelChoice.Warnings), one line
// each; for cmd_run.
func configWarnings(w io.Writer, warns []string) {
	for _, s := range warns {
		fmt.Fprintf(w, "pincer: warning: %s\n", s)
	}
}
