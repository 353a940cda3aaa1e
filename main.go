// Command pincer is a coding agent for the terminal.
//
//	pincer                        the workbench, in the current directory
//	pincer run [flags] [PROMPT]   one turn, headless; PROMPT or standard input
//	pincer sessions [list|show ID] [--json]
//
// Exit codes: 0 on success, 1 when the turn failed or was cancelled (or pincer could
// not start it), 2 on bad usage or a config or settings file that does not parse
// ("FILE:LINE: what is wrong"). Every failure prints one clear line on stderr.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// version is pincer's version, set at build time with -ldflags "-X main.version=...".
var version = "dev"

// exitUsage is the exit code for bad usage.
const exitUsage = 2

// usageError marks an error caused by the command line (exit code 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

const topUsage = `pincer — a coding agent for the terminal

Usage:
  pincer [flags]                       the full-screen workbench in this directory
  pincer run [flags] [PROMPT]          run one turn headless (PROMPT or stdin)
  pincer sessions [list] [--json]      list sessions, newest first
  pincer sessions show ID [--json]     a session's transcript and events
  pincer sessions watch ID             follow a session's events live (JSON lines)
  pincer model [status|list|configure|switch|default|refresh|add-model|set]
                                       providers, models and API keys
  pincer audit [--session ID] [--json] permission decisions, newest first
  pincer doctor                        what this machine lets pincer enforce and use
  pincer trust                         list this project's hooks and trust them (until they change)
  pincer version                       the version
  pincer help                          this text

Run "pincer run --help" for the flags of run.
Environment: PINCER_HOME (root of config and data), PINCER_API_KEY / OPENAI_API_KEY,
PINCER_MODEL (default model as PROVIDER/MODEL).
`

func main() {
	os.Exit(runMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// runMain dispatches a command line and returns the exit code.
func runMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var code int
	var err error
	switch {
	case len(args) == 0 || strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help" && args[0] != "--version":
		code, err = cmdTUI(args, stdout, stderr)
	case args[0] == "run":
		code, err = cmdRun(args[1:], stdin, stdout, stderr)
	case args[0] == sandboxExecCommand:
		return sandboxExecMain(args[1:], stderr)
	case args[0] == storeDaemonCommand:
		return cmdStoreDaemon(args[1:], stderr)
	case args[0] == "sessions" && len(args) > 1 && args[1] == "watch":
		code, err = cmdSessionsWatch(args[2:], stdout)
	case args[0] == "sessions":
		code, err = cmdSessions(args[1:], stdout)
	case args[0] == "model":
		code, err = cmdModel(args[1:], stdin, stdout, stderr)
	case args[0] == "trust":
		code, err = cmdTrust(args[1:], stdout)
	case args[0] == "audit":
		code, err = cmdAudit(args[1:], stdout)
	case args[0] == "doctor":
		return cmdDoctor(stdout)
	case args[0] == "version" || args[0] == "--version":
		fmt.Fprintln(stdout, "pincer", version)
		return 0
	case args[0] == "help" || args[0] == "-h" || args[0] == "--help":
		fmt.Fprint(stdout, topUsage)
		return 0
	default:
		err = usagef("unknown command %q (see \"pincer help\")", args[0])
	}
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "pincer: %v\n", err)
		var ue usageError
		var cf *configFailure
		if errors.As(err, &ue) || errors.As(err, &cf) {
			return exitUsage
		}
		return 1
	}
	return code
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
			return nil, usageError{err.Error()}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
