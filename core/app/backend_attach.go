package app

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"pincer/core/agent"
	"pincer/core/event"
	"pincer/core/permission"
)

// Attaching to a session another process runs. A workbench may show a session
// whose lease another pincer process holds (its turn runs there): it follows
// the log as always, Runner says who runs it, and a person's answer to one of
// that turn's approvals goes through the store as a permission.answered event
// (AnswerRemote). The process running the turn follows its own session's log
// while a turn of it runs (Submit) and hands such an answer to its approval
// queue — only for a request of that session that is still pending, and the
// first answer wins: one typed in its own workbench, or one from the store,
// whichever reaches the queue first (the queue drops the later). What it
// decided is its permission.resolved event, which every workbench on the
// session then shows.

// ErrNotRunElsewhere is AnswerRemote's refusal when no other process runs the
// session (nothing there could act on the answer).
var ErrNotRunElsewhere = errors.New("no other process runs this session")

// Runner says which other process runs the session now: its lease owner for
// people ("pid 4242 (pincer on box)"), "" when the session is free, held by
// this backend's agent, or held by a process that no longer exists.
func (b *Backend) Runner(ctx context.Context, sessionID string) (string, error) {
	l, found, err := b.Store.GetLease(ctx, sessionID)
	if err != nil || !found || b.ownedHere(l.Owner) || agent.OwnerGone(l.Owner) {
		return "", err
	}
	return agent.DescribeOwner(l.Owner), nil
}

// AnswerRemote records a person's answer to a pending request of a session
// another process runs (permission.answered on the session's log, By naming
// this process): behavior allow or deny, scope once, session or always, and
// the reason that reaches the model on a denial. The process running the turn
// acts on it if the request still waits there. It fails with
// ErrNotRunElsewhere when no other process holds the session.
func (b *Backend) AnswerRemote(ctx context.Context, sessionID, requestID string, behavior permission.Behavior, scope permission.Scope, reason string) error {
	runner, err := b.Runner(ctx, sessionID)
	if err != nil {
		return err
	}
	if runner == "" {
		return fmt.Errorf("%w: %s", ErrNotRunElsewhere, sessionID)
	}
	if scope == "" {
		scope = permission.ScopeOnce
	}
	_, err = b.Agent.Log().Emit(ctx, event.PermissionAnswered, sessionID, "", event.PermissionAnsweredData{
		RequestID: requestID, Behavior: string(behavior), Scope: string(scope), Reason: reason,
		By: agent.DescribeOwner(b.Agent.Owner())})
	return err
}

// followAnswers follows the session's log from sequence after while a turn
// of this process runs on it, handing the store's answers to the approval
// queue (answerFollower). The returned stop ends it and waits.
func (b *Backend) followAnswers(ctx context.Context, sessionID string, after uint64) (stop func()) {
	if b.Approvals == nil {
		return func() {}
	}
	fctx, cancel := context.WithCancel(ctx)
	f := &answerFollower{queue: b.Approvals, pending: map[string]bool{}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = b.Agent.Log().Follow(fctx, sessionID, after, func(ev event.Event) error {
			f.apply(ev)
			return nil
		})
	}()
	return func() { cancel(); wg.Wait() }
}

// answerFollower folds one session's log into the requests that wait for an
// answer, and delivers a permission.answered to the queue only for one of
// them, once: an answer to a request the log never asked, one already
// resolved or answered, or one of another session (it is not in this log) is
// ignored, as is one whose behavior or scope is not a known value.
type answerFollower struct {
	queue   *ApprovalQueue
	pending map[string]bool
}

// apply folds one event.
func (f *answerFollower) apply(ev event.Event) {
	p, err := ev.Payload()
	if err != nil {
		return
	}
	switch d := p.(type) {
	case event.PermissionRequestedData:
		f.pending[d.RequestID] = true
	case event.PermissionResolvedData:
		delete(f.pending, d.RequestID)
	case event.PermissionAnsweredData:
		ans, ok := remoteApproval(d)
		if !ok || !f.pending[d.RequestID] {
			return
		}
		delete(f.pending, d.RequestID)
		f.queue.Answer(d.RequestID, ans)
	}
}

// remoteApproval is the approval a permission.answered gives; false for a
// behavior or scope that is not one of the known values.
func remoteApproval(d event.PermissionAnsweredData) (agent.Approval, bool) {
	behavior := permission.Behavior(d.Behavior)
	scope := permission.Scope(d.Scope)
	if scope == "" {
		scope = permission.ScopeOnce
	}
	switch {
	case behavior != permission.Allow && behavior != permission.Deny:
		return agent.Approval{}, false
	case scope != permission.ScopeOnce && scope != permission.ScopeSession && scope != permission.ScopeAlways:
		return agent.Approval{}, false
	case behavior == permission.Deny:
		scope = permission.ScopeOnce
	}
	by := "user"
	if d.By != "" {
		by = "user (attached: " + d.By + ")"
	}
	return agent.Approval{Scope: scope, Decision: permission.Decision{Behavior: behavior, Reason: d.Reason, By: by}}, true
}
