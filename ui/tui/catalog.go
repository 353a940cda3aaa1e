package tui

import (
	"strings"

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

// catalogHint is the help bar's rows for a command being typed: the catalog's
// names it starts, described.
func catalogHint(list []app.Command, text string) []string {
	var items []string
	for _, e := range list {
		if _, taken := lookupSlash(e.Name); !taken && strings.HasPrefix(e.Name, text) {
			items = append(items, describeCommand(e))
		}
	}
	return items
}
