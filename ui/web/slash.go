package web

import (
	"net/http"
	"os"
	"slices"

	"pincer/core/app"
)

// serveAgentCommands are the /names a turn here answers besides the
// catalog's: the agent's own (core/agent), as `pincer run`'s.
var serveAgentCommands = []string{"/compact", "/init"}

// serveScreenCommands are the /names `pincer run` answers with a report of
// its own (ui/cli) that this server has no route for: with the workbench's,
// not_available.
var serveScreenCommands = []string{"/context"}

// slashCheck is app.RefuseSlash's knowledge of setup's workspace for this
// server: the agent's commands and the catalog's (skills, custom commands,
// plugins' — Setup.Commands) are known; workbench's are not available.
func slashCheck(setup *app.Setup, workbench []string) app.SlashCheck {
	known := slices.Clone(serveAgentCommands)
	for _, c := range setup.Commands() {
		if !slices.Contains(known, c.Name) {
			known = append(known, c.Name)
		}
	}
	return app.SlashCheck{
		Front: "pincer serve", Known: known,
		WorkbenchOnly: append(slices.Clone(workbench), serveScreenCommands...),
		WorkbenchHint: "run pincer in a terminal",
		ModelOnly: func(name string) bool {
			sk, ok := setup.Skills.Lookup(name)
			return ok && !sk.UserInvocable
		},
		Exists: func(path string) bool { _, err := os.Stat(path); return err == nil },
	}
}

// refuseSlash is a turn input's refusal (400 unknown_command or
// not_available, the message naming the /name), nil when it goes ahead.
func refuseSlash(input string, c app.SlashCheck) error {
	r := app.RefuseSlash(input, c)
	switch {
	case r == nil:
		return nil
	case r.NotAvailable:
		return errorf(http.StatusBadRequest, CodeNotAvailable, "%s", r.Message)
	}
	return errorf(http.StatusBadRequest, CodeUnknownCommand, "%s", r.Message)
}
