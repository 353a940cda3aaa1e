package subagent

import (
	"fmt"
	"strings"
)

// NestingTools are the tools a subagent never gets, whatever its definition
// says (no unbounded nesting, as Claude Code's subagents cannot start
// subagents): the Agent tool, its older name Task, and the team tools. A team
// member gets SendMessage from the team itself, never from the rule.
var NestingTools = []string{"Agent", "Task", "TeamCreate", "SendMessage", "TeamDelete"}

// SessionTools are the tools only a session a person started has, never a
// subagent, whatever its definition says: Remember (a memory candidate
// belongs to the session whose person reviews it; a subagent says what is
// worth remembering in its result).
var SessionTools = []string{"Remember"}

// NeverSubagent reports whether a subagent never gets the tool name: one of
// NestingTools or SessionTools.
func NeverSubagent(name string) bool {
	if IsNesting(name) {
		return true
	}
	for _, n := range SessionTools {
		if name == n {
			return true
		}
	}
	return false
}

// IsNesting reports whether name is one of NestingTools.
func IsNesting(name string) bool {
	for _, n := range NestingTools {
		if name == n {
			return true
		}
	}
	return false
}

// ToolSet is the tool-set rule: the names of the tools a subagent of d has,
// given the names of its parent's tools (in the parent's order). It is the
// definition's Tools (nil: all of the parent's; an empty list: none) minus
// its DisallowedTools, never a nesting or session tool (NeverSubagent) and never a tool
// the parent lacks: a definition only narrows. A name matches a tool as
// Claude Code writes it: exactly ("Bash", "mcp__github__create_issue"), or a
// whole MCP server ("mcp__github", "mcp__github__*") matching each of its
// tools. Notes say what a definition asked for and did not get (for warnings).
func ToolSet(parent []string, d Definition) (names []string, notes []string) {
	keep := map[string]bool{}
	if d.Tools == nil {
		for _, p := range parent {
			keep[p] = true
		}
	} else {
		for _, want := range d.Tools {
			if NeverSubagent(want) {
				notes = append(notes, fmt.Sprintf("agent %s: %s is never a subagent's tool", d.Name, want))
				continue
			}
			n := 0
			for _, p := range parent {
				if matches(want, p) {
					keep[p] = true
					n++
				}
			}
			if n == 0 {
				notes = append(notes, fmt.Sprintf("agent %s: the parent has no tool %s", d.Name, want))
			}
		}
	}
	for _, not := range d.DisallowedTools {
		for p := range keep {
			if matches(not, p) {
				delete(keep, p)
			}
		}
	}
	names = []string{}
	for _, p := range parent {
		if keep[p] && !NeverSubagent(p) {
			names = append(names, p)
			delete(keep, p) // a name listed twice by the parent is kept once
		}
	}
	return names, notes
}

// matches reports whether the definition's name want stands for the tool
// name: the same name, or want a whole MCP server (mcp__S, mcp__S__*) and
// name one of its tools (mcp__S__T).
func matches(want, name string) bool {
	if want == name {
		return true
	}
	server := strings.TrimSuffix(want, "__*")
	if !strings.HasPrefix(server, "mcp__") || strings.Contains(strings.TrimPrefix(server, "mcp__"), "__") {
		return false
	}
	return strings.HasPrefix(name, server+"__") && len(name) > len(server)+2
}
