package learn

import (
	"fmt"
	"strings"
)

// Bounds of the fallback's parts.
const (
	maxGoal     = 2000 // bytes of the request quoted
	maxSteps    = 30   // steps listed
	maxSubject  = 300  // bytes of a step's subject
	maxCommands = 15   // commands listed
	maxCheck    = 600  // bytes of the final answer quoted
)

// Fallback is the deterministic draft of a trajectory, used when the model's
// side call fails or its draft is refused: the name made from the request
// (NameFrom; "" when it makes none), the request as description, and a body
// with the goal, the steps that worked, the commands and what to check. Text
// from the trajectory is data in it: the request block-quoted, commands in a
// fence they cannot close.
func Fallback(tr Trajectory) Draft {
	goal := cut(cleanText(tr.Goal), maxGoal)
	d := Draft{Name: NameFrom(tr.Goal), Description: cleanLine("Repeat a workflow that worked: "+goal, MaxDescription)}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", cleanLine(goal, 80))
	b.WriteString("A workflow learned from a session where it worked. Follow the steps, adapting paths and names to the request.\n\n")
	fmt.Fprintf(&b, "## Goal\n\nThe request it was learned from:\n\n%s\n\n", quoted(goal))
	b.WriteString("## Steps that worked\n\n")
	for i, s := range tr.Succeeded() {
		if i == maxSteps {
			fmt.Fprintf(&b, "%d. … and %d more steps\n", i+1, len(tr.Succeeded())-i)
			break
		}
		// inline code cannot hold a backtick: it is shown as a quote mark
		// (the Commands section keeps each command as it ran)
		if subj := strings.ReplaceAll(cleanLine(s.Subject, maxSubject), "`", "'"); subj != "" {
			fmt.Fprintf(&b, "%d. %s `%s`\n", i+1, s.Tool, subj)
		} else {
			fmt.Fprintf(&b, "%d. %s\n", i+1, s.Tool)
		}
	}
	if cmds := tr.Commands(); len(cmds) > 0 {
		if len(cmds) > maxCommands {
			cmds = cmds[:maxCommands]
		}
		text := cleanText(strings.Join(cmds, "\n"))
		f := fence(text)
		fmt.Fprintf(&b, "\n## Commands\n\n%ssh\n%s\n%s\n", f, text, f)
	}
	b.WriteString("\n## What to check\n\n")
	if ok := tr.Succeeded(); len(ok) > 0 && ok[len(ok)-1].Tool == "Bash" {
		fmt.Fprintf(&b, "- The last command succeeds again: `%s`\n", strings.ReplaceAll(cleanLine(ok[len(ok)-1].Subject, maxSubject), "`", "'"))
	}
	b.WriteString("- Every step above ran without an error.\n")
	if final := cut(cleanText(tr.Final), maxCheck); final != "" {
		fmt.Fprintf(&b, "- The result matches what the session reported:\n\n%s\n", quoted(final))
	}
	d.Body = b.String()
	if len(d.Body) > MaxBody {
		d.Body = cut(d.Body, MaxBody-4) + "\n"
	}
	return d
}
