//go:build !linux

package sandbox

import "context"

// warmAll: see warm_linux.go; there is no OS sandbox here to pre-start.
var warmAll bool

// runWarm never runs anything outside Linux: commands run directly (plan).
func (e *Executor) runWarm(context.Context, execPlan, Command, Command) (Result, bool) {
	return Result{}, false
}

// StopWarm stops the waiting warm helpers; outside Linux there are none.
func StopWarm() {}
