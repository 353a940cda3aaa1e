package app

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"pincer/core/agent"
	"pincer/core/event"
	"pincer/core/permission"
)

func allowWith(scope permission.Scope) agent.Approval {
	return agent.Approval{Scope: scope, Decision: permission.Decision{Behavior: permission.Allow, Reason: "allowed by the user", By: "user"}}
}

func TestApprovalQueueWaitsForTheAnswer(t *testing.T) {
	q := NewApprovalQueue()
	got := make(chan agent.Approval, 1)
	go func() {
		got <- q.Approve(context.Background(), "s", "r1", permission.Input{Tool: "Edit"}, permission.Decision{Behavior: permission.Ask})
	}()
	for !q.Waiting("r1") {
		time.Sleep(time.Millisecond)
	}
	if !q.Answer("r1", allowWith(permission.ScopeSession)) {
		t.Fatal("Answer found nobody waiting")
	}
	ans := <-got
	if ans.Decision.Behavior != permission.Allow || ans.Scope != permission.ScopeSession || ans.Decision.By != "user" {
		t.Errorf("answer = %+v", ans)
	}
	if q.Waiting("r1") {
		t.Error("still waiting after the answer")
	}
}

func TestApprovalQueueEarlyAnswerAndCancel(t *testing.T) {
	q := NewApprovalQueue()
	deny := agent.Approval{Scope: permission.ScopeOnce, Decision: permission.Decision{Behavior: permission.Deny, Reason: "not now", By: "user"}}
	if q.Answer("r2", deny) {
		t.Error("nobody waited, yet Answer says delivered")
	}
	ans := q.Approve(context.Background(), "s", "r2", permission.Input{}, permission.Decision{})
	if ans.Decision.Behavior != permission.Deny || ans.Decision.Reason != "not now" {
		t.Errorf("early answer = %+v", ans)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan agent.Approval)
	go func() { done <- q.Approve(ctx, "s", "r3", permission.Input{}, permission.Decision{}) }()
	cancel()
	if ans := <-done; ans.Decision.Behavior != permission.Deny || ans.Decision.Reason != CancelledReason || ans.Scope != permission.ScopeOnce ||
		ans.Decision.By != event.ByUnanswered {
		t.Errorf("cancelled approval = %+v", ans)
	}
}

// TestApprovalQueueDropsLateAnswers: an answer to a request whose Approve
// already returned (its turn was cancelled as the person pressed y) is not
// kept: nothing is left behind for a request nobody will ask again.
func TestApprovalQueueDropsLateAnswers(t *testing.T) {
	q := NewApprovalQueue()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	q.Approve(ctx, "s", "r4", permission.Input{}, permission.Decision{})
	if q.Answer("r4", allowWith(permission.ScopeOnce)) {
		t.Error("a late answer was delivered")
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.early) != 0 {
		t.Errorf("a late answer was kept: %v", q.early)
	}
}

// TestApprovalQueueSettledIsBounded: the record of answered requests keeps
// only the newest maxSettled.
func TestApprovalQueueSettledIsBounded(t *testing.T) {
	q := NewApprovalQueue()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for i := range maxSettled + 10 {
		q.Approve(ctx, "s", fmt.Sprint("id", i), permission.Input{}, permission.Decision{})
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.settled) != maxSettled || len(q.order) != maxSettled {
		t.Errorf("settled %d, order %d, want %d", len(q.settled), len(q.order), maxSettled)
	}
}

// TestApprovalQueueCancelDeniesEveryWaitingRequest: parallel requests of one turn
// all come back denied, "cancelled", when the turn's context ends.
func TestApprovalQueueCancelDeniesEveryWaitingRequest(t *testing.T) {
	a := NewApprovalQueue()
	ctx, cancel := context.WithCancel(context.Background())
	ids := []string{"r1", "r2", "r3"}
	got := make([]agent.Approval, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = a.Approve(ctx, "s", id, permission.Input{Tool: "Edit"}, permission.Decision{Behavior: permission.Ask})
		}()
	}
	for !a.Waiting("r1") || !a.Waiting("r2") || !a.Waiting("r3") {
		time.Sleep(time.Millisecond)
	}
	cancel()
	wg.Wait()
	for i, ans := range got {
		if ans.Decision.Behavior != permission.Deny || ans.Decision.Reason != CancelledReason || ans.Scope != permission.ScopeOnce {
			t.Errorf("%s = %+v", ids[i], ans)
		}
		if a.Waiting(ids[i]) {
			t.Errorf("%s still waiting", ids[i])
		}
	}
}
