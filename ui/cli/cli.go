// Package cli is pincer's command line: the table of subcommands (name, usage,
// flags, run) from which the top-level usage is generated, the flags `pincer run`
// and the workbench share, and the exit codes. It parses and reports; what a
// command runs is built by the composition root (core/app).
//
// Exit codes: 0 on success, 1 when the turn failed or was cancelled (or pincer could
// not start it), 2 on bad usage or a config or settings file that does not parse
// ("FILE:LINE: what is wrong"). Every failure prints one clear line on stderr.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"pincer/core/app"
	"pincer/core/config"
	"pincer/ui/termtext"
)

// Version is pincer's version, set at build time with
// -ldflags "-X pincer/ui/cli.Version=...".
var Version = "dev"

// exitUsage is the exit code for bad usage.
const exitUsage = 2

// usageError marks an error caused by the command line (exit code 2).
type usageError = app.UsageError

func usagef(format string, a ...any) error { return usageError{Msg: fmt.Sprintf(format, a...)} }

// stdio is a command's standard streams.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// command is one entry of the command table. Synopses are its lines of the
// top-level usage, each a pair (synopsis after "pincer", what it does). Run gets the
// arguments after the command's name and returns the exit code, or an error that
// Main prints as one line and maps to an exit code (usage and config errors: 2).
type command struct {
	Name     string
	Synopses [][2]string
	Run      func(args []string, s stdio) (int, error)
}

// commands is every visible subcommand, in the order of the usage text. The
// workbench (no command, or flags only) and the hidden re-exec entries of main.go
// (the sandbox helper, the store daemon) are not in it.
var commands = []command{
	{Name: "run", Synopses: [][2]string{{"run [flags] [PROMPT]", "run one turn headless (PROMPT or stdin)"}},
		Run: func(a []string, s stdio) (int, error) { return cmdRun(a, s.in, s.out, s.err) }},
	{Name: "sessions", Synopses: [][2]string{
		{"sessions [list] [--json]", "list sessions, newest first"},
		{"sessions show ID [--json]", "a session's transcript and events"},
		{"sessions watch ID", "follow a session's events live (JSON lines)"},
		{"sessions diff ID [--turn N]", "what a session (or its turn N) changed, as a unified diff for git apply"}},
		Run: func(a []string, s stdio) (int, error) {
			if len(a) > 0 && a[0] == "watch" {
				return cmdSessionsWatch(a[1:], s.out, s.err)
			}
			if len(a) > 0 && a[0] == "diff" {
				return cmdSessionsDiff(a[1:], s.out)
			}
			return cmdSessions(a, s.out)
		}},
	{Name: "rewind", Synopses: [][2]string{{"rewind --session ID --turn N [--code|--conversation] [--force]",
		"undo a session's turn N and after: its file changes, its conversation (a branch), or both"}},
		Run: func(a []string, s stdio) (int, error) { return cmdRewind(a, s.out) }},
	{Name: "model", Synopses: [][2]string{{"model [status|list|configure|switch|default|refresh|add-model|set]", "providers, models and API keys"}},
		Run: func(a []string, s stdio) (int, error) { return cmdModel(a, s.in, s.out, s.err) }},
	{Name: "audit", Synopses: [][2]string{{"audit [--session ID] [--json]", "permission decisions, newest first"}},
		Run: func(a []string, s stdio) (int, error) { return cmdAudit(a, s.out) }},
	{Name: "doctor", Synopses: [][2]string{{"doctor [--verbose]", "config files, model, and what this machine lets pincer enforce and use"}},
		Run: func(a []string, s stdio) (int, error) { return doctorCommand(a, s.out) }},
	{Name: "trust", Synopses: [][2]string{{"trust [--yes]", "list this project's hooks, ask, and trust them (until they change)"}},
		Run: func(a []string, s stdio) (int, error) { return cmdTrust(a, s.in, s.out) }},
	{Name: "plugin", Synopses: [][2]string{{"plugin install|list|enable|disable|remove", "plugins: skills, commands, agents, hooks, MCP and LSP servers"}},
		Run: func(a []string, s stdio) (int, error) { return cmdPlugin(a, s.out) }},
	{Name: "agents", Synopses: [][2]string{{"agents [list] [--json]", "the agent types the Agent tool can start: built-in, project, user, plugin"}},
		Run: func(a []string, s stdio) (int, error) { return cmdAgents(a, s.out, s.err) }},
	{Name: "memory", Synopses: [][2]string{{"memory list|show|approve|reject|add|forget|files|repair", "long-term memory and learned skills: review the candidates, see the files"}},
		Run: func(a []string, s stdio) (int, error) { return cmdMemory(a, s.out) }},
	{Name: "mcp", Synopses: [][2]string{{"mcp [list|get|add|remove|approve] ...", "MCP servers: list and check, add, remove, approve a project's"}},
		Run: func(a []string, s stdio) (int, error) { return cmdMCP(a, s.out, s.err) }},
	{Name: "worktrees", Synopses: [][2]string{
		{"worktrees [list] [--json]", "this repository's worktrees: branch, changes, the session that made it"},
		{"worktrees merge NAME | remove NAME [--force]", "merge a worktree's branch into this checkout, or discard it"}},
		Run: func(a []string, s stdio) (int, error) { return cmdWorktrees(a, s.out) }},
	{Name: "serve", Synopses: [][2]string{{"serve [--addr 127.0.0.1:PORT] [flags]", "HTTP API, event streams and the web panel (prints the URL with its token)"}},
		Run: func(a []string, s stdio) (int, error) { return cmdServe(a, s.out, s.err) }},
	{Name: "version", Synopses: [][2]string{{"version", "the version"}},
		Run: noArgs("version", func(s stdio) int { fmt.Fprintln(s.out, versionLine()); return 0 })},
	{Name: "help", Synopses: [][2]string{{"help", "this text"}}}, // Run set by init: it prints this table
}

func init() {
	help, _ := lookup("help")
	help.Run = func(a []string, s stdio) (int, error) {
		if len(a) > 0 && a[0] != "help" { // pincer help run: that command's flags
			if c, ok := lookup(a[0]); ok {
				return c.Run([]string{"--help"}, s)
			}
			return 0, usagef("unknown command %q (see \"pincer help\")", a[0])
		}
		fmt.Fprint(s.out, usageText())
		return 0, nil
	}
	commands[len(commands)-1] = help
}

// noArgs is the Run of a command that takes no arguments: anything after its
// name is a usage error (--help prints its one usage line).
func noArgs(name string, run func(stdio) int) func([]string, stdio) (int, error) {
	return func(a []string, s stdio) (int, error) {
		if len(a) == 1 && (a[0] == "-h" || a[0] == "--help") {
			fmt.Fprintf(s.out, "Usage: pincer %s   (no arguments)\n", name)
			return 0, nil
		}
		if len(a) > 0 {
			return 0, usagef("%s takes no arguments, got %q", name, a[0])
		}
		return run(s), nil
	}
}

// aliases maps the spellings that stand for a command.
var aliases = map[string]string{"--version": "version", "-h": "help", "--help": "help"}

// lookup returns the command named name (or an alias of it).
func lookup(name string) (command, bool) {
	if a, ok := aliases[name]; ok {
		name = a
	}
	for _, c := range commands {
		if c.Name == name {
			return c, true
		}
	}
	return command{}, false
}

// usageText is the top-level usage, generated from the command table.
func usageText() string {
	rows := [][2]string{{"[flags] [PROMPT]", "the full-screen workbench in this directory (sends PROMPT)"},
		{"-p PROMPT [flags]", "one turn headless, as pincer run (Claude Code's print flag)"}}
	for _, c := range commands {
		rows = append(rows, c.Synopses...)
	}
	var b strings.Builder
	b.WriteString("pincer — a coding agent for the terminal\n\nUsage:\n")
	const col = 37
	for _, r := range rows {
		syn := "pincer " + r[0]
		if len(syn) >= col {
			fmt.Fprintf(&b, "  %s\n  %-*s%s\n", syn, col, "", r[1])
			continue
		}
		fmt.Fprintf(&b, "  %-*s%s\n", col, syn, r[1])
	}
	b.WriteString(`
Run "pincer run --help" for the flags of run.
Environment: PINCER_HOME (root of config and data), PINCER_API_KEY / OPENAI_API_KEY,
PINCER_MODEL (default model as PROVIDER/MODEL).
`)
	return b.String()
}

// Main runs one command line (the arguments after the program name) and returns
// the exit code: the command routeArgs finds (a command's name first, -p for
// run), else the workbench, with a prompt if the line holds one.
//
// Everything written to stdout and stderr passes through termtext (a JSON
// output through termtext.JSON): the model's text, tool output and summaries
// cannot drive the terminal (set its title, write the clipboard, ask it a
// question whose answer lands in the shell).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	stdout, stderr = termtext.NewWriter(stdout), termtext.NewWriter(stderr)
	s := stdio{in: stdin, out: stdout, err: stderr}
	var code int
	var err error
	if len(args) == 0 || !readsNothing(args[0]) {
		if herr := config.CheckHome(os.Getenv); herr != nil { // one line, not one per directory under it
			fmt.Fprintf(stderr, "pincer: %v\n", herr)
			return exitUsage
		}
		// Before any subcommand runs git or go: nothing of pincer's own
		// from a directory sandboxed commands write (the run's Prepare
		// trims again, and its warning says what was left out).
		app.TrustOwnPATHAtStart()
	}
	name, rest, err := routeArgs(args)
	switch c, ok := lookup(name); {
	case err != nil:
	case name == "":
		code, err = cmdTUI(rest, stdout, stderr)
	case ok:
		code, err = c.Run(rest, s)
	}
	if err == nil {
		return code
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fmt.Fprintf(stderr, "pincer: %v\n", err)
	var ue usageError
	var cf *app.ConfigFailure
	if errors.As(err, &ue) || errors.As(err, &cf) {
		return exitUsage
	}
	return 1
}

// readsNothing reports whether the command line starting with arg only
// prints pincer's own text (help, version), so needs no PINCER_HOME.
func readsNothing(arg string) bool {
	c, ok := lookup(arg)
	return ok && (c.Name == "help" || c.Name == "version")
}

// parseInterspersed parses fs allowing flags before and after positional arguments,
// as `pincer run "fix it" --model openai/gpt-4.1` expects.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, flagError(err.Error())
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
