package tui

import (
	"regexp"
	"strings"
)

// inputKind is what a line sent from the input box is.
type inputKind int

const (
	inputPrompt         inputKind = iota // text for the model
	inputCommand                         // a workbench command of the table (runSlash)
	inputAgentCommand                    // the agent's own command (/compact, /init): a turn's input
	inputUnknownCommand                  // looks like a command, is none: refused, never sent
)

// commandName is what a command's name looks like: a slash, a letter, then
// letters, digits, '-', '_' or ':'.
var commandName = regexp.MustCompile(`^/[A-Za-z][A-Za-z0-9_:-]*$`)

// classifyInput decides what a sent line is, from its first word: a command
// of the table, the agent's own, a word shaped like a command name that is
// none (refused: a typo must not go to the model — "/usr/bin/x is broken",
// whose first word is a path, does), or a prompt. A lone "/" is an unknown
// command. As Claude Code, which answers an unknown /name itself.
func classifyInput(line string) inputKind {
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
	if first == "/" || commandName.MatchString(first) {
		return inputUnknownCommand
	}
	return inputPrompt
}

// completeSlashText completes a slash command being typed (text: one word
// starting with "/"): to the one command it starts (with a space when it takes
// arguments), else to the longest prefix its matches share; candidates are the
// matching names, in table order. ok is false when text is not a command
// being typed (then Tab does what it does elsewhere).
func completeSlashText(text string) (completed string, candidates []string, ok bool) {
	if !strings.HasPrefix(text, "/") || strings.ContainsAny(text, " \n\t") {
		return text, nil, false
	}
	common := ""
	for _, c := range slashCommands {
		if !strings.HasPrefix(c.name, text) {
			continue
		}
		candidates = append(candidates, c.name)
		if common == "" {
			common = c.name
			continue
		}
		for !strings.HasPrefix(c.name, common) {
			common = common[:len(common)-1]
		}
	}
	if len(candidates) == 0 {
		return text, nil, true
	}
	if len(candidates) == 1 {
		if c, _ := lookupSlash(common); c.args != "" {
			common += " "
		}
	}
	return common, candidates, true
}

// keepForCorrection keeps a failed command's line in the input box, all of
// it selected: a key that edits (an arrow, End) fixes it, typing replaces it,
// so the next command is never appended to the failed one.
func (w *Workbench) keepForCorrection() {
	w.input.Select(0, w.input.GetTextLength())
}
