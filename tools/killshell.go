package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
)

//go:embed killshell.md
var killShellDescription string

// KillShellInput is the input of KillShell, as Claude Code's KillShell.
type KillShellInput struct {
	// ShellID is the ID Bash returned ("bash_id: ID").
	ShellID string `json:"shell_id"`
}

const killShellSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "shell_id": {"type": "string", "minLength": 1, "description": "The ID of the background shell to end, as Bash returned it (bash_id: ...)."}
  },
  "required": ["shell_id"],
  "additionalProperties": false
}`

// KillShell ends a background shell of the session, as Claude Code's
// KillShell: SIGTERM to its whole process group, SIGKILL after the grace
// (which ends its PID namespace). Its Kind is KindRead although it stops a
// process: it can only end what a call of the same session started (which
// ends with the session anyway), never start or change anything, so like
// Claude Code it needs no approval and works in plan mode.
type KillShell struct{}

// Spec describes KillShell: KindRead, not concurrency-safe.
func (KillShell) Spec() Spec {
	return Spec{Name: "KillShell", Description: killShellDescription, Schema: json.RawMessage(killShellSchema), Kind: KindRead}
}

// Summary returns "KillShell bash_ID".
func (KillShell) Summary(in KillShellInput) string { return "KillShell " + in.ShellID }

// Run ends the shell and returns once it has ended: "Shell ID killed." or,
// for one that had ended already, its status (for an earlier run's shell,
// EarlierShellNote). It fails for an ID the session has no shell of.
func (KillShell) Run(ctx context.Context, env *Env, in KillShellInput) (Result, error) {
	if env == nil || env.Shells == nil {
		return Result{}, errors.New("background shells are not available here")
	}
	before, err := env.Shells.Info(in.ShellID)
	if info, ok := AsEarlierShell(err); ok {
		return Result{Output: "Shell " + info.ID + " is not running. " + EarlierShellNote(info)}, nil
	}
	if err != nil {
		return Result{}, err
	}
	if !before.Running {
		return Result{Output: fmt.Sprintf("Shell %s is not running: it had %s (exit code %d).", in.ShellID, endedHow(before), before.ExitCode)}, nil
	}
	after, err := env.Shells.Kill(in.ShellID)
	if err != nil {
		return Result{}, err
	}
	if after.Reason != ShellKilled {
		return Result{Output: fmt.Sprintf("Shell %s had %s before it was killed (exit code %d).", in.ShellID, endedHow(after), after.ExitCode)}, nil
	}
	return Result{Output: fmt.Sprintf("Shell %s killed.", in.ShellID)}, nil
}

// endedHow says how an ended shell ended, for a sentence.
func endedHow(i ShellInfo) string {
	switch i.Reason {
	case ShellKilled:
		return "been killed"
	case ShellSessionEnded:
		return "ended with its session"
	case ShellTainted:
		return "been ended by pincer (its workspace was tainted while it read unconfined)"
	default:
		return "exited"
	}
}
