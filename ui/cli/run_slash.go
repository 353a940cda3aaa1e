package cli

import (
	"os"
	"slices"
	"strings"

	"pincer/core/app"
	"pincer/core/mcp"
	"pincer/ui/tui"
)

// runAgentCommands are the /names `pincer run` answers besides the catalog's:
// the agent's own (core/agent: /compact, /init) and /context (cmd_context.go).
var runAgentCommands = []string{"/compact", "/context", "/init"}

// runSlashCheck is what refuseRunSlash knows of the session.
type runSlashCheck struct {
	known         []string               // the /names a run can do: runAgentCommands and the catalog's (Setup.Commands)
	workbenchOnly []string               // the workbench's own (tui.WorkbenchCommands)
	modelOnly     func(name string) bool // a skill with user-invocable: false ("/x")
	exists        func(path string) bool // a path on this machine ("/usr")
}

// refuseRunSlash says why `pincer run` will not send input (a usage error,
// exit 2, before any model call), or nil when it goes ahead: app.RefuseSlash's
// decision (an unknown /name, a workbench-only one, a model-only skill; a
// path stays a prompt).
func refuseRunSlash(input string, c runSlashCheck) error {
	r := app.RefuseSlash(input, app.SlashCheck{Front: "`pincer run`", Known: c.known, WorkbenchOnly: c.workbenchOnly,
		WorkbenchHint: "run pincer without run", ModelOnly: c.modelOnly, Exists: c.exists})
	if r == nil {
		return nil
	}
	return usagef("%s", r.Message)
}

// runSlashCheckFor is refuseRunSlash's knowledge of setup's session.
func runSlashCheckFor(setup *app.Setup) runSlashCheck {
	known := slices.Clone(runAgentCommands)
	for _, c := range setup.Commands() {
		if !slices.Contains(known, c.Name) {
			known = append(known, c.Name)
		}
	}
	return runSlashCheck{
		known:         known,
		workbenchOnly: tui.WorkbenchCommands(),
		modelOnly: func(name string) bool {
			sk, ok := setup.Skills.Lookup(name)
			return ok && !sk.UserInvocable
		},
		exists: func(path string) bool { _, err := os.Stat(path); return err == nil },
	}
}

// refuseMCPPrompt refuses (a usage error, exit 2) an input whose first word is
// an MCP prompt (/mcp__SERVER__PROMPT) that is no invocation now, after the
// run waited for its servers: its server is not approved, failed, still
// connecting, or has no such prompt (mcp.PromptUnavailable says which) — it is
// never sent to the model as text.
func refuseMCPPrompt(input string, isInvocation bool, m *mcp.Manager) error {
	t := strings.TrimSpace(input)
	if isInvocation || !strings.HasPrefix(t, "/mcp__") {
		return nil
	}
	first := strings.Fields(t)[0]
	var states []mcp.ServerState
	if m != nil {
		states = m.States()
	}
	if why, ok := mcp.PromptUnavailable(states, first); ok {
		return usagef("%s", why)
	}
	return usagef("%s: no MCP server offers this prompt now (pincer mcp list)", first)
}
