package tui

import (
	"pincer/core/app"
)

// commands are the catalog's rows (skills, custom commands, plugin ones, MCP
// prompts) as the Backend lists them now (before Attach: Options.Commands).
// Event loop only (it reads the catalog in memory: MCP prompts come and go).
func (w *Workbench) commands() []app.Command {
	switch {
	case w.be != nil:
		return w.be.Commands()
	case w.opts.Commands != nil:
		return w.opts.Commands()
	}
	return nil
}

// knownCommand is classifyInput's test of a catalog name.
func (w *Workbench) knownCommand() func(string) bool {
	list := w.commands()
	return func(name string) bool {
		_, ok := findCommand(list, name)
		return ok
	}
}

// catalogHelpLines are /help's rows of the catalog, one per command with its
// argument hint, description and origin.
func catalogHelpLines(list []app.Command) []string {
	if len(list) == 0 {
		return nil
	}
	lines := []string{"", "Skills and custom commands (/NAME ARGS runs one; Tab completes)"}
	for _, e := range list {
		if _, taken := lookupSlash(e.Name); taken {
			continue
		}
		lines = append(lines, "  "+describeCommand(e))
	}
	return lines
}

// slashHints is the key bar's line while a slash command is typed (text: one
// word starting with "/"): the one command it starts, described, or the
// names of all it starts (what Tab completes among, completeSlashText's
// candidates), so that several fit on the line (new user r19: "/re" showed
// /resume alone, its description filling the line).
func slashHints(text string, list []app.Command) []string {
	_, names, _ := completeSlashText(text, list)
	if len(names) != 1 {
		return names
	}
	if c, ok := lookupSlash(names[0]); ok {
		return []string{c.name + " " + c.help}
	}
	if e, ok := findCommand(list, names[0]); ok {
		return []string{describeCommand(e)}
	}
	return names
}
