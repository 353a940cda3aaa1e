package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// sendEarly overlaps the warm helper's wake-up with the parent's plan: it
// takes the waiting helper most likely to match c (warmHint: the one
// pre-started after a command of the same executor's kind) and sends it c's
// request at once, before the plan is computed. The helper prepares the
// command (its streams, environment, directory and the program's lookup)
// and then waits for a "go" that runWarm sends only once the plan computed
// meanwhile gives exactly the key that helper was confined for; on any
// other outcome the helper is killed with nothing run (warmCall.abort). So
// nothing of the command runs before the plan checked out, and a wrong
// hint costs a helper, never confinement. nil when no helper waits for the
// hint (or c cannot go to a warm helper): the command takes the path of
// runWarm alone.
func (e *Executor) sendEarly(ctx context.Context, c Command) *warmCall {
	if ctx.Err() != nil {
		return nil
	}
	dir, ok := warmDir(c.Dir)
	if !ok {
		return nil
	}
	w := takeHinted(e.warmHint(c))
	if w == nil {
		return nil
	}
	// As runWarm's request: the environment is c's (wrap changes only the
	// program and its arguments).
	req := warmRequest{Argv: append([]string{c.Path}, c.Args...), Env: runEnv(ctx, c), Dir: dir}
	call, ok := w.send(req)
	if !ok {
		warmCounts.gatedAborted.Add(1) // it had died: killed, not used
		return nil
	}
	return call
}

// warmHint names, before any plan, the kind of command c is for a warm
// helper: the helper program, the policy, the workspace's roots and c's
// own process bound — the inputs of the spec that do not depend on the
// state of the machine. Two commands with the same hint get the same key
// unless the world (bound sockets, hidden paths' files, the mount table)
// changed in between. It only chooses which helper is sent a request
// early; the key alone decides whether that helper runs it.
func (e *Executor) warmHint(c Command) string {
	h := sha256.New()
	fmt.Fprintf(h, "%q\x00%#v\x00%d\x00%t\x00", e.helper(), e.Policy, c.MaxProcesses, c.RequireProcessLimit)
	if e.Workspace != nil {
		fmt.Fprintf(h, "%q\x00%q", e.Workspace.Roots(), e.Workspace.GrantedDirs())
	}
	return hex.EncodeToString(h.Sum(nil))
}

// takeHinted removes and returns the newest waiting helper pre-started
// for a command with hint, nil when none.
func takeHinted(hint string) *warmHelper {
	warmPool.mu.Lock()
	defer warmPool.mu.Unlock()
	for i := len(warmPool.idle) - 1; i >= 0; i-- {
		if w := warmPool.idle[i]; w.hint == hint {
			warmPool.idle = append(warmPool.idle[:i], warmPool.idle[i+1:]...)
			return w
		}
	}
	return nil
}
