package app

import (
	"regexp"
	"slices"
	"strings"
)

// slashName is what a command's first word looks like (as the workbench's
// classifyInput): a slash, a letter, then letters, digits, '-', '_' or ':'.
// "/usr/bin/x" is no command name: it has a second slash.
var slashName = regexp.MustCompile(`^/[A-Za-z][A-Za-z0-9_:-]*$`)

// SlashCheck is what RefuseSlash knows of a front end without a screen
// (`pincer run`, `pincer serve`) and its session.
type SlashCheck struct {
	Front         string                 // the front end for people: "`pincer run`"
	Known         []string               // the /names it can do: the agent's and the catalog's (Setup.Commands)
	WorkbenchOnly []string               // the /names that need the workbench's screen (tui.WorkbenchCommands)
	WorkbenchHint string                 // how to get the workbench: "run pincer without run"
	ModelOnly     func(name string) bool // a skill with user-invocable: false ("/x")
	Exists        func(path string) bool // a path on this machine ("/usr")
}

// SlashRefusal is why an input is not sent: NotAvailable for a workbench-only
// command, else an unknown one; Message says it for people.
type SlashRefusal struct {
	NotAvailable bool
	Message      string
}

// RefuseSlash says why a front end without a screen will not send input, or
// nil when it goes ahead. A prompt whose first word is a command name that it
// does not know is refused, so a typo costs no model call: a workbench-only
// command ("/loop works in the workbench only"), a skill only the model may
// load, anything else ("unknown command /nosuch — `pincer run` knows:
// ..."). As Claude Code, a first word that is a path stays a prompt: one with
// a second slash ("/usr/bin is empty?") never is a command name, and a
// one-segment name that is an existing file or directory ("/tmp is full?") is
// a path too (Claude Code checks "/NAME" on disk before answering "Unknown
// skill"). Names starting mcp__ (MCP prompts, whose servers may not be ready)
// are left to the invocation. A pure decision: ui/cli's table test holds it.
func RefuseSlash(input string, c SlashCheck) *SlashRefusal {
	t := strings.TrimSpace(input)
	if !strings.HasPrefix(t, "/") {
		return nil
	}
	unknown := func(msg string) *SlashRefusal { return &SlashRefusal{Message: msg} }
	first := strings.Fields(t)[0]
	if strings.Count(first, "/") > 1 {
		return nil // a path: "/usr/bin is empty?"
	}
	if first != "/" && !slashName.MatchString(first) {
		// One segment that is no command name ("/nosuch.txt", "/loop?"): a
		// path when it is one on disk (with or without a closing mark),
		// else no prompt to send unasked (red team 2: each made a model call).
		if c.Exists != nil && (c.Exists(first) || c.Exists(strings.TrimRight(first, "?!.,;:"))) {
			return nil
		}
		return unknown("unknown command " + first + " — a prompt starting with / is a command; put a word before it to send it to the model")
	}
	if slices.Contains(c.Known, first) || strings.HasPrefix(first, "/mcp__") {
		return nil
	}
	if slices.Contains(c.WorkbenchOnly, first) {
		return &SlashRefusal{NotAvailable: true, Message: first + " works in the workbench only (" + c.WorkbenchHint + ")"}
	}
	if first != "/" && c.Exists != nil && c.Exists(first) {
		return nil
	}
	knows := c.Front + " knows: " + strings.Join(c.Known, ", ")
	if first != "/" && c.ModelOnly != nil && c.ModelOnly(first) {
		return unknown("unknown command " + first + " — it is a skill only the model loads (user-invocable: false); " + knows)
	}
	return unknown("unknown command " + first + " — " + knows)
}
