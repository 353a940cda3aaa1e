package tui

import (
	"context"
	"sync"

	"pincer/core/agent"
	"pincer/core/permission"
)

// Approval scopes, as agent.Approval spells them.
const (
	ScopeOnce    = "once"
	ScopeSession = "session"
	ScopeAlways  = "always"
)

// CancelledReason is the reason of the denial Approve returns when the turn
// ends (Esc, quitting) before the person answered: cancelling a turn resolves
// every request it has pending this way.
const CancelledReason = "cancelled"

// Approver is the workbench's agent.Approver: Approve blocks until the person
// answers the request in the Approvals pane (Answer) or ctx ends, which denies
// with CancelledReason.
// The request reaches the pane through its permission.requested event, matched
// by request ID; an answer given between that event and the call to Approve is
// kept and delivered. Any number of requests may wait at once; none blocks
// another. Safe for concurrent use.
type Approver struct {
	mu      sync.Mutex
	waiting map[string]chan agent.Approval
	early   map[string]agent.Approval
}

// NewApprover returns an Approver with nothing waiting.
func NewApprover() *Approver {
	return &Approver{waiting: map[string]chan agent.Approval{}, early: map[string]agent.Approval{}}
}

var _ agent.Approver = (*Approver)(nil)

// Approve waits for the person's answer to requestID. When ctx ends first (the
// turn was cancelled) the call is denied.
func (a *Approver) Approve(ctx context.Context, sessionID, requestID string, in permission.Input, d permission.Decision) agent.Approval {
	a.mu.Lock()
	if ans, ok := a.early[requestID]; ok {
		delete(a.early, requestID)
		a.mu.Unlock()
		return ans
	}
	ch := make(chan agent.Approval, 1)
	a.waiting[requestID] = ch
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		delete(a.waiting, requestID)
		a.mu.Unlock()
	}()
	select {
	case ans := <-ch:
		return ans
	case <-ctx.Done():
		return agent.Approval{Scope: ScopeOnce, Decision: permission.Decision{Behavior: permission.Deny,
			Reason: CancelledReason, By: "user"}}
	}
}

// Answer delivers the answer to a request. It reports whether someone was
// waiting for it; when nobody was yet, the answer is kept for the Approve call
// that is about to come.
func (a *Approver) Answer(requestID string, ans agent.Approval) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if ch, ok := a.waiting[requestID]; ok {
		delete(a.waiting, requestID)
		ch <- ans
		return true
	}
	a.early[requestID] = ans
	return false
}

// Waiting reports whether an Approve call is blocked on requestID.
func (a *Approver) Waiting(requestID string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	_, ok := a.waiting[requestID]
	return ok
}

// Forget drops a kept answer nobody collected (its request was resolved some
// other way).
func (a *Approver) Forget(requestID string) {
	a.mu.Lock()
	delete(a.early, requestID)
	a.mu.Unlock()
}

// answerFor builds the Approval for an approvals-pane action.
func answerFor(act Action, reason string) agent.Approval {
	allow := func(scope string) agent.Approval {
		return agent.Approval{Scope: scope, Decision: permission.Decision{Behavior: permission.Allow,
			Reason: "allowed by the user", By: "user"}}
	}
	switch act {
	case ActAllowOnce:
		return allow(ScopeOnce)
	case ActAllowSession:
		return allow(ScopeSession)
	case ActAllowAlways:
		return allow(ScopeAlways)
	}
	if reason == "" {
		reason = "denied by user"
	}
	return agent.Approval{Scope: ScopeOnce, Decision: permission.Decision{Behavior: permission.Deny, Reason: reason, By: "user"}}
}

// The workbench queue answers agent.Resolve.
var _ agent.Resolver = (*Approver)(nil)
