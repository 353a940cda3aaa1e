package cli

import (
	"errors"
	"fmt"
	"io"

	"pincer/core/app"
	"pincer/core/config/modelflow"
)

// cmdTrust is `pincer trust [--yes]`: list the project's hooks, then trust
// them when the person answers y (a terminal, or a line on stdin) or passed
// --yes. End of input with no answer trusts nothing.
func cmdTrust(args []string, stdin io.Reader, stdout io.Writer) (int, error) {
	yes := false
	for _, a := range args {
		switch a {
		case "-h", "--help":
			fmt.Fprintln(stdout, "Usage: pincer trust [--yes]   list this project's hooks (.pincer/config.toml, .claude/settings*.json), ask, and trust them until a hook file changes (--yes: without asking)")
			return 0, nil
		case "-y", "--yes":
			yes = true
		default:
			return 0, usagef("trust takes only --yes, got %q", a)
		}
	}
	ws, err := app.WorkspaceHere()
	if err != nil {
		return 0, err
	}
	confirm := func(hooks []app.TrustedHook) (bool, error) {
		fmt.Fprintln(stdout, "This project's hooks run outside the sandbox, as you, on the events below:")
		for _, h := range hooks {
			m := ""
			if h.Matcher != "" {
				m = " [" + h.Matcher + "]"
			}
			fmt.Fprintf(stdout, "  %s%s  %s  (%s)\n", h.Event, m, h.Command, h.File)
		}
		if yes {
			return true, nil
		}
		ok, err := newTermPrompter(stdin, stdout).Confirm(fmt.Sprintf("Trust these %d hook(s) until a hook file changes?", len(hooks)))
		if errors.Is(err, modelflow.ErrCancelled) {
			fmt.Fprintln(stdout)
			return false, nil
		}
		return ok, err
	}
	hooks, key, trusted, err := app.TrustProject(ws.Root(), confirm)
	switch {
	case err != nil:
		return 1, err
	case len(hooks) == 0:
		fmt.Fprintf(stdout, "pincer: %s defines no hooks; nothing to trust\n", key)
		return 0, nil
	case !trusted:
		fmt.Fprintln(stdout, "pincer: nothing trusted (answer y, or pass --yes)")
		return 1, nil
	}
	fmt.Fprintf(stdout, "pincer: trusted %d hook(s) of %s (until a hook file changes)\n", len(hooks), key)
	return 0, nil
}
