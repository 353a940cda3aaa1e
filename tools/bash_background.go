package tools

import (
	"context"
	"errors"
	"fmt"

	"pincer/sandbox"
)

// BashBackgroundOutput is how many bytes of a background shell's output are
// kept for BashOutput: the most recent ones (what was not read in time is
// dropped, and the next read says how much).
const BashBackgroundOutput = 1 << 20

// BashBackgroundNoNetwork is what the model is told when a background shell
// starts with the sandbox's network off.
const BashBackgroundNoNetwork = "The network is off in the sandbox: this shell has a network of its own (its own localhost), so a server it starts cannot be reached from other Bash calls; pincer must be run with --allow-network for that."

// runInBackground is Bash with run_in_background, as Claude Code's: the
// command (after the same permission decision as any Bash call, made before
// Run) starts as a background shell of the session — the same sandbox as a
// foreground command, no timeout — and the call returns at once with
// "bash_id: ID". Its output is read with BashOutput, it is ended with
// KillShell or with the session's process.
func (b Bash) runInBackground(ctx context.Context, env *Env, in BashInput) (Result, error) {
	if env.Shells == nil {
		return Result{}, errors.New("background shells are not available here: run the command in the foreground")
	}
	env = confineBackground(env)
	hold, env := holdBackground(env)
	pol, err := bashPolicy(env)
	if err != nil {
		hold.cancel()
		return Result{}, err
	}
	slot, err := env.Shells.admit()
	if err != nil {
		return Result{}, err
	}
	// The shell's share of the Run's process budget, held by its PID
	// namespace's pid_max; where that cannot hold, the sandbox refuses it.
	cmd := sandbox.Command{
		Path: shellPath(), Args: []string{"-c", in.Command}, Dir: env.Workspace.Root(),
		KillGrace: b.KillGrace, MaxOutput: BashBackgroundOutput,
		MaxProcesses: env.Shells.Quota().PerShell(), RequireProcessLimit: true,
	}
	var proc *sandbox.Process
	if pol != nil {
		ex := &sandbox.Executor{Policy: *pol, Workspace: env.Workspace}
		proc, err = ex.Start(ctx, cmd)
	} else {
		proc, err = sandbox.Start(ctx, cmd)
	}
	if err != nil {
		slot()
		hold.cancel()
		return Result{}, fmt.Errorf("starting the shell: %w", err)
	}
	info, err := env.Shells.add(proc, in.Command, in.Description, env.ToolCallID, slot)
	if err != nil {
		hold.cancel()
		return Result{}, err
	}
	if !hold.started(info.ID) {
		_ = env.Shells.endFor(info.ID, ShellTainted)
		return Result{Output: "bash_id: " + info.ID + "\n" + TaintEndedNote, IsError: true}, nil
	}
	text := "Command running in background.\nbash_id: " + info.ID + "\nRead its output with BashOutput and end it with KillShell; it ends with the session at the latest."
	if env.Sandbox != nil && env.Sandbox.Enabled && !env.Sandbox.Network {
		text += "\n" + BashBackgroundNoNetwork
	}
	if n := proc.Notice(); n != "" {
		text += "\n[" + n + "]"
	}
	return Result{Output: withConfinedNote(env, text, true)}, nil
}
