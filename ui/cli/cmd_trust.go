package cli

import (
	"fmt"
	"io"

	"pincer/core/app"
)

// cmdTrust is `pincer trust`: list the project's hooks, trust them, one line.
func cmdTrust(args []string, stdout io.Writer) (int, error) {
	if len(args) > 0 {
		if args[0] == "-h" || args[0] == "--help" {
			fmt.Fprintln(stdout, "Usage: pincer trust   list this project's hooks (.pincer/config.toml, .claude/settings*.json) and trust them until a hook file changes")
			return 0, nil
		}
		return 0, usagef("trust takes no arguments")
	}
	ws, err := app.WorkspaceHere()
	if err != nil {
		return 0, err
	}
	hooks, key, err := app.TrustProject(ws.Root())
	if err != nil {
		return 1, err
	}
	for _, h := range hooks {
		m := ""
		if h.Matcher != "" {
			m = " [" + h.Matcher + "]"
		}
		fmt.Fprintf(stdout, "  %s%s  %s  (%s)\n", h.Event, m, h.Command, h.File)
	}
	if len(hooks) == 0 {
		fmt.Fprintf(stdout, "pincer: %s defines no hooks; nothing to trust\n", key)
		return 0, nil
	}
	fmt.Fprintf(stdout, "pincer: trusted %d hook(s) of %s (until a hook file changes)\n", len(hooks), key)
	return 0, nil
}
