package tools

import (
	"errors"

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
const TaintedReadsNote = "[reads confined to the workspace: a command only a repository's rule allowed ran earlier here and may have left links leading outside, so this call, which you did not approve yourself, cannot read files elsewhere (the rest of the home directory, other users' files); a \"Permission denied\" on one comes from that — approve the call to run it unconfined]"

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

// withConfinedNote appends ConfinedReadsNote to text when env's call ran confined.
func withConfinedNote(env *Env, text string) string {
	switch {
	case !env.ConfineReads:
		return text
	case env.ConfineTainted:
		return text + "\n" + TaintedReadsNote
	case env.Unvouched: // a background shell (confineBackground)
		return text + "\n" + BackgroundReadsNote
	}
	return text + "\n" + ConfinedReadsNote
}
