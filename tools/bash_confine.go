package tools

import (
	"errors"
	"strings"

	"pincer/sandbox"
)

// ConfinedReadsNote ends the result of a Bash call whose command ran with its
// reads confined (Env.ConfineReads), so that the model and the person know
// where a "Permission denied" comes from.
const ConfinedReadsNote = "[reads confined to the workspace: only a repository's rule allowed this command, so it cannot read files elsewhere (the rest of the home directory, other users' files); a \"Permission denied\" on one comes from that]"

// TaintedReadsNote ends the result of a Bash call that ran with its reads
// confined because a command only a repository's rule allowed ran earlier in
// this workspace (Env.ConfineTainted): that command may have left a link or a
// gitfile leading outside, so what the person did not allow themselves cannot
// read files elsewhere either.
const TaintedReadsNote = "[reads confined to the workspace: a command that may leave links leading outside ran earlier here (one only a repository's rule allowed, or a background shell nobody approved that changes files), so this call, which ran without the person's approval or own rule, cannot read files elsewhere (the rest of the home directory, other users' files); a \"Permission denied\" here comes from that. To run it unconfined, the person can approve it or allow it with their own rule (--allowed-tools, or an allow rule in their config.toml).]"

// errUnconfinable is Bash's error when a call's reads must be confined and
// no sandbox is configured.
var errUnconfinable = errors.New("this command may run only with its reads confined to the workspace (a repository's rule alone allowed it, or one allowed an earlier command in this workspace), and the sandbox is off")

// bashPolicy returns the sandbox policy a Bash call runs under: env.Sandbox,
// with ConfineReads when env.ConfineReads says so; nil for no sandbox. It
// fails (errUnconfinable) when the reads must be confined and env has no
// sandbox: the call must not run.
func bashPolicy(env *Env) (*sandbox.Policy, error) {
	if !env.ConfineReads {
		return env.Sandbox, nil
	}
	if env.Sandbox == nil {
		return nil, errUnconfinable
	}
	pol := *env.Sandbox
	pol.ConfineReads = true
	return &pol, nil
}

// PathsReadsNote ends the result of a Bash call confined for its own
// decision (Env.ConfineQuiet) whose output shows a refused read.
const PathsReadsNote = "[reads confined to the workspace: this command ran without approval because it only reads or changes files inside the workspace, so it cannot read files elsewhere (the rest of the home directory, other users' files); a \"Permission denied\" here comes from that — a link or a list of names leading outside. To run it unconfined, the person can approve it or allow it with their own rule (say --allowed-tools 'Bash(diff:*)', or an allow rule in their config.toml).]"

// withConfinedNote appends the note that says why env's call ran confined
// (ConfinedReadsNote, TaintedReadsNote, BackgroundReadsNote for a
// background shell, PathsReadsNote when the output shows a refused read).
func withConfinedNote(env *Env, text string, background bool) string {
	switch {
	case !env.ConfineReads:
		return text
	case env.ConfineTainted:
		return text + "\n" + TaintedReadsNote
	case background && env.Unvouched:
		return text + "\n" + BackgroundReadsNote
	case env.ConfineQuiet && !readRefused(text):
		return text
	case env.ConfineQuiet:
		return text + "\n" + PathsReadsNote
	}
	return text + "\n" + ConfinedReadsNote
}

// readRefused reports whether output shows a read the kernel refused.
func readRefused(output string) bool {
	return strings.Contains(output, "Permission denied") || strings.Contains(output, "Operation not permitted")
}
