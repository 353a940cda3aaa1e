package tui

import (
	"regexp"
	"strings"

	"pincer/core/app"
)

// inputKind is what a line sent from the input box is.
type inputKind int

const (
	inputPrompt         inputKind = iota // text for the model
	inputCommand                         // a workbench command of the table (runSlash)
	inputAgentCommand                    // the agent's own command (/compact, /init): a turn's input
	inputUnknownCommand                  // looks like a command, is none: refused, never sent
	inputInvocation                      // a skill, custom command or MCP prompt of the catalog: a turn's input, expanded by the Backend
)

// commandName is what a command's name looks like: a slash, a letter, then
// letters, digits, '-', '_' or ':'.
var commandName = regexp.MustCompile(`^/[A-Za-z][A-Za-z0-9_:-]*$`)

// classifyInput decides what a sent line is, from its first word: a command
// of the table, the agent's own, a word shaped like a command name that is
// none (refused: a typo must not go to the model — "/usr/bin/x is broken",
// whose first word is a path, does), or a prompt. A lone "/" is an unknown
// command. A name the catalog knows (known: the Backend's Commands) is an
// invocation, sent as a turn. The table's names come first. As Claude Code,
// which answers an unknown /name itself.
func classifyInput(line string, known func(name string) bool) inputKind {
	trimmed := strings.TrimSpace(line)
	if !strings.HasPrefix(trimmed, "/") {
		return inputPrompt
	}
	first := strings.Fields(trimmed)[0]
	if c, ok := lookupSlash(first); ok {
		if c.turn {
			return inputAgentCommand
		}
		return inputCommand
	}
	if commandName.MatchString(first) && known != nil && known(first) {
		return inputInvocation
	}
	if first == "/" || commandName.MatchString(first) {
		return inputUnknownCommand
	}
	return inputPrompt
}

// completeSlashText completes a slash command being typed (text: one word
// starting with "/"): to the one command it starts (with a space when it takes
// arguments), else to the longest prefix its matches share; candidates are the
// matching names, in table order, then the catalog's (extra: skills, custom
// commands, MCP prompts; a name the table has is not listed twice). ok is
// false when text is not a command being typed (then Tab does what it does
// elsewhere).
func completeSlashText(text string, extra []app.Command) (completed string, candidates []string, ok bool) {
	if !strings.HasPrefix(text, "/") || strings.ContainsAny(text, " \n\t") {
		return text, nil, false
	}
	common := ""
	for _, name := range completionNames(extra) {
		if !strings.HasPrefix(name, text) {
			continue
		}
		candidates = append(candidates, name)
		if common == "" {
			common = name
			continue
		}
		for !strings.HasPrefix(name, common) {
			common = common[:len(common)-1]
		}
	}
	if len(candidates) == 0 {
		return text, nil, true
	}
	if len(candidates) == 1 {
		if c, ok := lookupSlash(common); ok && c.args != "" {
			common += " "
		} else if e, ok := findCommand(extra, common); ok && e.ArgumentHint != "" {
			common += " "
		}
	}
	return common, candidates, true
}

// completionNames are the table's names, then the catalog's not in it.
func completionNames(extra []app.Command) []string {
	var out []string
	for _, c := range slashCommands {
		out = append(out, c.name)
	}
	for _, e := range extra {
		if _, taken := lookupSlash(e.Name); !taken {
			out = append(out, e.Name)
		}
	}
	return out
}

// findCommand finds a catalog row by its name ("/x").
func findCommand(list []app.Command, name string) (app.Command, bool) {
	for _, e := range list {
		if e.Name == name {
			return e, true
		}
	}
	return app.Command{}, false
}

// describeCommand is one catalog row as completion's hint and /help show
// it: "/name ARGS — description (origin)".
func describeCommand(e app.Command) string {
	s := e.Name
	if e.ArgumentHint != "" {
		s += " " + e.ArgumentHint
	}
	if e.Description != "" {
		s += " — " + e.Description
	}
	return s + " (" + e.Origin + ")"
}

// keepForCorrection keeps a failed command's line in the input box, all of
// it selected: a key that edits (an arrow, End) fixes it, typing replaces it,
// so the next command is never appended to the failed one.
func (w *Workbench) keepForCorrection() {
	w.input.Select(0, w.input.GetTextLength())
}
