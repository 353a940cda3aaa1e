package cli

import (
	"os"
	"regexp"
	"slices"
	"strings"

	"pincer/core/app"
	"pincer/core/mcp"
	"pincer/ui/tui"
)

// runAgentCommands are the /names `pincer run` answers besides the catalog's:
// the agent's own (core/agent: /compact, /init) and /context (cmd_context.go).
var runAgentCommands = []string{"/compact", "/context", "/init"}

// slashName is what a command's first word looks like (as the workbench's
// classifyInput): a slash, a letter, then letters, digits, '-', '_' or ':'.
// "/usr/bin/x" is no command name: it has a second slash.
var slashName = regexp.MustCompile(`^/[A-Za-z][A-Za-z0-9_:-]*$`)

// runSlashCheck is what refuseRunSlash knows of the session.
type runSlashCheck struct {
	known         []string               // the /names a run can do: runAgentCommands and the catalog's (Setup.Commands)
	workbenchOnly []string               // the workbench's own (tui.WorkbenchCommands)
	modelOnly     func(name string) bool // a skill with user-invocable: false ("/x")
	exists        func(path string) bool // a path on this machine ("/usr")
}

// refuseRunSlash says why `pincer run` will not send input (a usage error,
// exit 2, before any model call), or nil when it goes ahead. A prompt whose
// first word is a command name that the run does not know is refused, so a
// typo in CI costs no model call: a workbench-only command ("/loop works in
// the workbench only"), a skill only the model may load, anything else
// ("unknown command /nosuch — `pincer run` knows: ..."). As Claude Code, a
// first word that is a path stays a prompt: one with a second slash
// ("/usr/bin is empty?") never is a command name, and a one-segment name that
// is an existing file or directory ("/tmp is full?") is a path too (Claude
// Code checks "/NAME" on disk before answering "Unknown skill"). Names
// starting mcp__ (MCP prompts, whose servers may not be ready) are left to
// the invocation.
func refuseRunSlash(input string, c runSlashCheck) error {
	t := strings.TrimSpace(input)
	if !strings.HasPrefix(t, "/") {
		return nil
	}
	first := strings.Fields(t)[0]
	if strings.Count(first, "/") > 1 {
		return nil // a path: "/usr/bin is empty?"
	}
	if first != "/" && !slashName.MatchString(first) {
		// One segment that is no command name ("/nosuch.txt", "/loop?"): a
		// path when it is one on disk (with or without a closing mark),
		// else no prompt to send unasked (red team 2: each made a model call).
		if c.exists != nil && (c.exists(first) || c.exists(strings.TrimRight(first, "?!.,;:"))) {
			return nil
		}
		return usagef("unknown command %s — a prompt starting with / is a command; put a word before it to send it to the model", first)
	}
	if slices.Contains(c.known, first) || strings.HasPrefix(first, "/mcp__") {
		return nil
	}
	if slices.Contains(c.workbenchOnly, first) {
		return usagef("%s works in the workbench only (run pincer without run)", first)
	}
	if first != "/" && c.exists != nil && c.exists(first) {
		return nil
	}
	knows := "`pincer run` knows: " + strings.Join(c.known, ", ")
	if first != "/" && c.modelOnly != nil && c.modelOnly(first) {
		return usagef("unknown command %s — it is a skill only the model loads (user-invocable: false); %s", first, knows)
	}
	return usagef("unknown command %s — %s", first, knows)
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
