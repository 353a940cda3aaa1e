//go:build !linux

package sandbox

import "context"

// warmAll: see warm_linux.go; there is no OS sandbox here to pre-start.
var warmAll bool

// runWarm never runs anything outside Linux: commands run directly (plan).
func (e *Executor) runWarm(context.Context, execPlan, Command, Command, *warmCall) (Result, bool) {
	return Result{}, false
}

// warmCall is a request sent early to a warm helper; outside Linux there
// is none.
type warmCall struct{}

// abort disposes of an early request; outside Linux there is none.
func (*warmCall) abort() {}

// sendEarly sends no request: outside Linux there are no warm helpers.
func (e *Executor) sendEarly(context.Context, Command) *warmCall { return nil }

// StopWarm stops the waiting warm helpers; outside Linux there are none.
func StopWarm() {}
