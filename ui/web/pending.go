package web

import (
	"context"
	"sort"
	"sync"
	"time"

	"pincer/core/agent"
	"pincer/core/event"
	"pincer/core/permission"
)

// Approval is a pending permission request as the API shows it (GET
// /api/approvals, a session's "pending"): the permission.requested event's
// fields, the session asking, and Label, "[TYPE]" for a subagent's child
// session as the workbench's queue labels it ("" for a session's own).
type Approval struct {
	RequestID    string `json:"requestId"`
	SessionID    string `json:"sessionId"`
	ToolCallID   string `json:"toolCallId"`
	Name         string `json:"name"`
	Summary      string `json:"summary"`
	Reason       string `json:"reason"`
	Command      string `json:"command"`
	Diff         string `json:"diff"`
	PreviewError string `json:"previewError"`
	Label        string `json:"label"`

	seq   uint64     // the request's event sequence, for the order
	queue resolverFn // the workspace queue that answers it
}

// resolverFn answers one request on its workspace's queue.
type resolverFn func(requestID string, ans agent.Approval) bool

// pendingSet is every request waiting for a person's answer in this
// server's Runs. Each Run's approver is the workspace's approval queue
// wrapped (approver): while its Approve blocks, the request is here, with
// the fields its permission.requested event (emitted just before) gives.
// Safe for concurrent use.
type pendingSet struct {
	log *event.Log

	mu      sync.Mutex
	byID    map[string]*Approval
	labelOf func(ctx context.Context, sessionID string) string
}

// newPendingSet returns an empty set reading requests from log.
func newPendingSet(log *event.Log) *pendingSet {
	return &pendingSet{log: log, byID: map[string]*Approval{}}
}

// trackingApprover is a workspace's agent.Approver: the queue, with the
// request in the pending set while it waits.
type trackingApprover struct {
	set   *pendingSet
	queue interface {
		agent.Approver
		agent.Resolver
	}
}

var (
	_ agent.Approver = trackingApprover{}
	_ agent.Resolver = trackingApprover{}
)

// approver wraps queue.
func (p *pendingSet) approver(queue interface {
	agent.Approver
	agent.Resolver
}) agent.Approver {
	return trackingApprover{set: p, queue: queue}
}

// Approve lists the request, waits for the queue's answer, unlists it.
func (t trackingApprover) Approve(ctx context.Context, sessionID, requestID string, in permission.Input, d permission.Decision) agent.Approval {
	t.set.add(ctx, sessionID, requestID, t.queue.Answer)
	defer t.set.remove(requestID)
	return t.queue.Approve(ctx, sessionID, requestID, in, d)
}

// Answer passes an answer to the queue (agent.Resolve's path).
func (t trackingApprover) Answer(requestID string, ans agent.Approval) bool {
	return t.queue.Answer(requestID, ans)
}

// add lists requestID of sessionID with its permission.requested fields.
func (p *pendingSet) add(ctx context.Context, sessionID, requestID string, answer resolverFn) {
	a := &Approval{RequestID: requestID, SessionID: sessionID, queue: answer}
	if ev, ok := p.findRequest(ctx, sessionID, requestID); ok {
		var d event.PermissionRequestedData
		if err := ev.Decode(&d); err == nil {
			a.ToolCallID, a.Name, a.Summary, a.Reason = d.ToolCallID, d.Name, d.Summary, d.Reason
			a.Command, a.Diff, a.PreviewError = d.Command, d.Diff, d.PreviewError
		}
		a.seq = ev.Sequence
	}
	if p.labelOf != nil {
		a.Label = p.labelOf(ctx, sessionID)
	}
	p.mu.Lock()
	p.byID[requestID] = a
	p.mu.Unlock()
}

// requestWindow is how many of a session's last events are searched for a
// request's permission.requested (emitted just before Approve; concurrent
// calls of one response may have added a few since).
const requestWindow = 256

// findRequest is the permission.requested event of requestID among the
// session's last events.
func (p *pendingSet) findRequest(ctx context.Context, sessionID, requestID string) (event.Event, bool) {
	last, err := p.log.LastSequence(ctx, sessionID)
	if err != nil {
		return event.Event{}, false
	}
	after := uint64(0)
	if last > requestWindow {
		after = last - requestWindow
	}
	evs, err := p.log.Read(ctx, sessionID, after, 0)
	if err != nil {
		return event.Event{}, false
	}
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type != event.PermissionRequested {
			continue
		}
		var d event.PermissionRequestedData
		if evs[i].Decode(&d) == nil && d.RequestID == requestID {
			return evs[i], true
		}
	}
	return event.Event{}, false
}

// remove unlists requestID.
func (p *pendingSet) remove(requestID string) {
	p.mu.Lock()
	delete(p.byID, requestID)
	p.mu.Unlock()
}

// list is the pending requests (of sessionID; "": all), oldest first.
func (p *pendingSet) list(sessionID string) []Approval {
	p.mu.Lock()
	out := []Approval{}
	for _, a := range p.byID {
		if sessionID == "" || a.SessionID == sessionID {
			out = append(out, *a)
		}
	}
	p.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		if out[i].SessionID != out[j].SessionID {
			return out[i].SessionID < out[j].SessionID
		}
		return out[i].seq < out[j].seq
	})
	return out
}

// listWait bounds how long an answer waits for its request to be listed: the
// permission.requested event is in the log (a client may have seen it) a
// moment before the agent's Approve call lists it.
const listWait = time.Second

// takeSoon is take, waiting up to listWait for a request not listed yet.
func (p *pendingSet) takeSoon(ctx context.Context, requestID string) (Approval, bool) {
	deadline := time.Now().Add(listWait)
	for {
		if a, ok := p.take(requestID); ok || time.Now().After(deadline) {
			return a, ok
		}
		select {
		case <-ctx.Done():
			return Approval{}, false
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// take unlists the pending request requestID and returns it (false: not
// pending, or already taken by another answer).
func (p *pendingSet) take(requestID string) (Approval, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	a, ok := p.byID[requestID]
	if !ok {
		return Approval{}, false
	}
	delete(p.byID, requestID)
	return *a, true
}
