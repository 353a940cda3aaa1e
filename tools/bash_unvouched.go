package tools

import (
	"context"
	"errors"
	"sync"

	"pincer/sandbox"
)

// A Bash call the person did not allow themselves (Env.Unvouched) was
// decided on the paths it named as they were then. A command that keeps
// reading — a background shell, a foreground command still running when a
// command of another session or subagent runs — can follow what a later
// command changes under it: a link swapped or moved so that it leads
// outside, a gitfile planted (red team r20 F1, F2). So such a background
// shell runs with its reads confined where the sandbox can confine them, and
// whatever runs unconfined is held in the workspace
// (sandbox.Workspace.HoldUnconfined): when a command only a repository's
// rule allows makes the workspace tainted, every held command is ended first.

// BackgroundReadsNote ends the result of a background Bash call that runs
// with its reads confined because the person did not approve it themselves
// (Env.Unvouched).
const BackgroundReadsNote = "[reads confined to the workspace: this background shell runs without the person's approval or own rule, and the files it reads can change while it runs (a link moved or swapped), so it cannot read files elsewhere (the rest of the home directory, other users' files); a \"Permission denied\" here comes from that. To run it unconfined, the person can approve it or allow it with their own rule (--allowed-tools, or an allow rule in their config.toml).]"

// TaintEndedNote is what a Bash command ended by a taint of its workspace
// says (a foreground result, or BashOutput of a background shell).
const TaintEndedNote = "pincer ended this command: a command that may leave links leading outside (one only a repository's rule allows, or a background shell nobody approved that changes files) started in this workspace while this one ran with its reads unconfined. Run it again: its reads will be confined to the workspace."

// errEndedByTaint is the cause of a foreground command's context when a
// taint of its workspace ended it.
var errEndedByTaint = errors.New("ended: the workspace was tainted while the command ran unconfined")

// confineBackground returns env with ConfineReads set when env's call is
// unvouched, not confined already, and the sandbox can confine its reads;
// env itself otherwise.
func confineBackground(env *Env) *Env {
	if !env.Unvouched || env.ConfineReads || env.Sandbox == nil {
		return env
	}
	ex := sandbox.Executor{Policy: *env.Sandbox, Workspace: env.Workspace}
	if ex.CanConfineReads() != nil {
		return env
	}
	c := *env
	c.ConfineReads = true
	return &c
}

// holdForeground holds a foreground command of env's call that runs
// unvouched and unconfined until its done is called: it returns the context
// the command runs under (cancelled with errEndedByTaint when the workspace
// is tainted meanwhile) and the env it runs with — confined
// (ConfineTainted) when the workspace was tainted since the call's
// decision. done must be called once the command has ended.
func holdForeground(ctx context.Context, env *Env) (context.Context, *Env, func()) {
	if !env.Unvouched || env.ConfineReads || env.Workspace == nil {
		return ctx, env, func() {}
	}
	runCtx, cancel := context.WithCancelCause(ctx)
	ended := make(chan struct{})
	release, ok := env.Workspace.HoldUnconfined(func() {
		cancel(errEndedByTaint)
		<-ended
	})
	if !ok {
		cancel(nil)
		return ctx, taintedEnv(env), func() {}
	}
	return runCtx, env, func() {
		release()
		close(ended)
		cancel(nil)
	}
}

// endedByTaint reports whether a taint of the workspace ended the command
// run under ctx (holdForeground's).
func endedByTaint(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), errEndedByTaint)
}

// taintedEnv is env with its reads confined for a taint.
func taintedEnv(env *Env) *Env {
	c := *env
	c.ConfineReads, c.ConfineTainted = true, true
	return &c
}

// backgroundHold is a background shell held unconfined: its stop ends the
// shell once it has been added to the set, or keeps it from being added.
type backgroundHold struct {
	mu      sync.Mutex
	stopped bool
	shells  *Shells
	id      string // "" until the shell is in the set
	release func()
}

// holdBackground holds a background shell of env's call that runs unvouched
// and unconfined (confineBackground could not confine it). It returns nil
// when nothing is to be held, and the env to run with: confined
// (ConfineTainted) when the workspace was tainted since the call's decision.
func holdBackground(env *Env) (*backgroundHold, *Env) {
	if !env.Unvouched || env.ConfineReads || env.Workspace == nil {
		return nil, env
	}
	h := &backgroundHold{shells: env.Shells}
	release, ok := env.Workspace.HoldUnconfined(h.stop)
	if !ok {
		return nil, taintedEnv(env)
	}
	h.release = release
	return h, env
}

// stop ends the held shell (reason ShellTainted) and returns once it has
// ended, or marks it so that started refuses it.
func (h *backgroundHold) stop() {
	if h == nil {
		return
	}
	h.mu.Lock()
	h.stopped = true
	id := h.id
	h.mu.Unlock()
	if id != "" {
		h.shells.endFor(id, ShellTainted)
	}
}

// started records that the shell id is in the set; it reports false (and the
// caller must end the shell) when stop ran before. The hold is released when
// the shell ends.
func (h *backgroundHold) started(id string) bool {
	if h == nil {
		return true
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		return false
	}
	h.id = id
	h.shells.onEnd(id, h.release)
	return true
}

// cancel releases a hold whose shell did not start (a nil hold: nothing).
func (h *backgroundHold) cancel() {
	if h != nil {
		h.release()
	}
}
