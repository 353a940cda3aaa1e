package app

import (
	"context"
	"sync"

	"pincer/core/agent"
	"pincer/core/event"
	"pincer/core/permission"
)

// CancelledReason is the reason of the denial Approve returns (By
// event.ByUnanswered, never "user") when the turn ends (cancelled, quitting)
// before the person answered: cancelling a turn resolves every request it has
// pending this way, and nothing runs.
const CancelledReason = "not answered (turn cancelled)"

// maxSettled bounds how many answered request IDs the queue remembers, to drop
// late answers to them (an approval is a person's keypress: thousands a session
// at most).
const maxSettled = 4096

// ApprovalQueue is the agent.Approver of a front end with an approvals pane:
// Approve blocks until the person answers the request (Answer, through
// agent.Resolve or Backend.Resolve) or ctx ends, which denies with
// CancelledReason. The request reaches the pane through its
// permission.requested event, matched by request ID; an answer given between
// that event and the call to Approve is kept and delivered; an answer to a
// request whose Approve already returned is dropped. Any number of requests
// may wait at once; none blocks another. Safe for concurrent use.
type ApprovalQueue struct {
	mu      sync.Mutex
	waiting map[string]chan agent.Approval
	early   map[string]agent.Approval
	settled map[string]bool // requests whose Approve returned
	order   []string        // settled, oldest first, for the bound
}

// NewApprovalQueue returns a queue with nothing waiting.
func NewApprovalQueue() *ApprovalQueue {
	return &ApprovalQueue{waiting: map[string]chan agent.Approval{}, early: map[string]agent.Approval{},
		settled: map[string]bool{}}
}

var (
	_ agent.Approver = (*ApprovalQueue)(nil)
	_ agent.Resolver = (*ApprovalQueue)(nil)
)

// Approve waits for the person's answer to requestID. When ctx ends first (the
// turn was cancelled) the call is denied, scope once, with CancelledReason.
func (q *ApprovalQueue) Approve(ctx context.Context, sessionID, requestID string, in permission.Input, d permission.Decision) agent.Approval {
	q.mu.Lock()
	if ans, ok := q.early[requestID]; ok {
		delete(q.early, requestID)
		q.settleLocked(requestID)
		q.mu.Unlock()
		return ans
	}
	ch := make(chan agent.Approval, 1)
	q.waiting[requestID] = ch
	q.mu.Unlock()
	defer func() {
		q.mu.Lock()
		delete(q.waiting, requestID)
		q.settleLocked(requestID)
		q.mu.Unlock()
	}()
	select {
	case ans := <-ch:
		return ans
	case <-ctx.Done():
		return agent.Approval{Scope: permission.ScopeOnce, Decision: permission.Decision{Behavior: permission.Deny,
			Reason: CancelledReason, By: event.ByUnanswered}}
	}
}

// settleLocked remembers that requestID's Approve returned.
func (q *ApprovalQueue) settleLocked(requestID string) {
	if q.settled[requestID] {
		return
	}
	q.settled[requestID] = true
	q.order = append(q.order, requestID)
	if len(q.order) > maxSettled {
		delete(q.settled, q.order[0])
		q.order = q.order[1:]
	}
}

// Answer delivers the answer to a request. It reports whether someone was
// waiting for it; when nobody was yet, the answer is kept for the Approve call
// that is about to come, unless that call already returned (the answer is
// then dropped).
func (q *ApprovalQueue) Answer(requestID string, ans agent.Approval) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if ch, ok := q.waiting[requestID]; ok {
		delete(q.waiting, requestID)
		ch <- ans
		return true
	}
	if !q.settled[requestID] {
		q.early[requestID] = ans
	}
	return false
}

// Waiting reports whether an Approve call is blocked on requestID.
func (q *ApprovalQueue) Waiting(requestID string) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	_, ok := q.waiting[requestID]
	return ok
}
