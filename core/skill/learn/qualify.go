package learn

import (
	"fmt"
	"strings"
)

// DefaultMinSteps is how many tool calls must have worked for a turn to be a
// multi-step task worth a skill: more than a read, an edit and a check (a
// routine fix), a workflow.
const DefaultMinSteps = 5

// actingTools are the tools whose call changes files or runs something: a
// turn made only of reads and searches explains, it does no task.
var actingTools = map[string]bool{"Bash": true, "Edit": true, "MultiEdit": true, "Write": true,
	"NotebookEdit": true, "apply_patch": true}

// Turn is what Qualify knows of a turn besides its trajectory.
type Turn struct {
	// Subagent is true for a subagent's session (its parent's turn is the
	// task a person asked for).
	Subagent bool
	// Input is the line as sent: a /NAME line ran a skill or a command
	// already.
	Input string
}

// Qualify says why a completed turn is no skill to propose ("" when it is
// one): a subagent's turn, a /NAME invocation, fewer than minSteps tool calls
// that worked (minSteps <= 0: DefaultMinSteps), none that acted, a last tool
// call that failed, or work the turn undid itself (Undone).
func Qualify(tr Trajectory, t Turn, minSteps int) string {
	if minSteps <= 0 {
		minSteps = DefaultMinSteps
	}
	ok := tr.Succeeded()
	acted := false
	for _, s := range ok {
		acted = acted || actingTools[s.Tool]
	}
	switch {
	case t.Subagent:
		return "a subagent's turn"
	case strings.HasPrefix(strings.TrimSpace(t.Input), "/"):
		return "the turn ran a command"
	case strings.TrimSpace(tr.Goal) == "":
		return "no request to learn from"
	case len(ok) < minSteps:
		return fmt.Sprintf("%d tool calls worked, fewer than %d", len(ok), minSteps)
	case !acted:
		return "no tool call changed or ran anything"
	case !tr.Steps[len(tr.Steps)-1].OK:
		return "the last tool call failed"
	case Undone(tr):
		return "the turn undid its own changes"
	}
	return ""
}

// Undone reports whether a Bash call that worked threw the turn's changes
// away after a change was made: git checkout/restore of paths, git reset
// --hard, git stash (but list/show), git clean.
func Undone(tr Trajectory) bool {
	changed := false
	for _, s := range tr.Succeeded() {
		if s.Tool != "Bash" {
			changed = changed || actingTools[s.Tool]
			continue
		}
		if changed && discards(s.Subject) {
			return true
		}
		changed = true
	}
	return false
}

// discards reports whether a command line holds a git command that throws
// work away.
func discards(cmd string) bool {
	for _, part := range strings.FieldsFunc(cmd, func(r rune) bool { return r == ';' || r == '&' || r == '|' || r == '\n' }) {
		w := strings.Fields(part)
		for len(w) > 0 && strings.Contains(w[0], "=") { // VAR=x git ...
			w = w[1:]
		}
		if len(w) < 2 || w[0] != "git" {
			continue
		}
		switch args := w[2:]; w[1] {
		case "restore", "clean":
			return true
		case "checkout":
			for _, a := range args {
				if a == "--" || a == "." || a == "-f" || a == "--force" {
					return true
				}
			}
		case "reset":
			for _, a := range args {
				if a == "--hard" || a == "--merge" || a == "--keep" {
					return true
				}
			}
		case "stash":
			if len(args) == 0 || (args[0] != "list" && args[0] != "show") {
				return true
			}
		}
	}
	return false
}
