package tui

import (
	"context"
	"testing"
	"time"

	"pincer/core/agent"
	"pincer/core/permission"
)

func TestApproverWaitsForTheAnswer(t *testing.T) {
	a := NewApprover()
	got := make(chan agent.Approval, 1)
	go func() {
		got <- a.Approve(context.Background(), "s", "r1", permission.Input{Tool: "Edit"}, permission.Decision{Behavior: permission.Ask})
	}()
	for !a.Waiting("r1") {
		time.Sleep(time.Millisecond)
	}
	if !a.Answer("r1", answerFor(ActAllowSession, "")) {
		t.Fatal("Answer found nobody waiting")
	}
	ans := <-got
	if ans.Decision.Behavior != permission.Allow || ans.Scope != ScopeSession || ans.Decision.By != "user" {
		t.Errorf("answer = %+v", ans)
	}
	if a.Waiting("r1") {
		t.Error("still waiting after the answer")
	}
}

func TestApproverEarlyAnswerAndCancel(t *testing.T) {
	a := NewApprover()
	if a.Answer("r2", answerFor(ActDeny, "not now")) {
		t.Error("nobody waited, yet Answer says delivered")
	}
	ans := a.Approve(context.Background(), "s", "r2", permission.Input{}, permission.Decision{})
	if ans.Decision.Behavior != permission.Deny || ans.Decision.Reason != "not now" {
		t.Errorf("early answer = %+v", ans)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan agent.Approval)
	go func() { done <- a.Approve(ctx, "s", "r3", permission.Input{}, permission.Decision{}) }()
	cancel()
	if ans := <-done; ans.Decision.Behavior != permission.Deny {
		t.Errorf("cancelled approval = %+v", ans)
	}
	if d := answerFor(ActDeny, ""); d.Decision.Reason != "denied by user" {
		t.Errorf("plain deny reason = %q", d.Decision.Reason)
	}
	if d := answerFor(ActAllowAlways, ""); d.Scope != ScopeAlways || d.Decision.Behavior != permission.Allow {
		t.Errorf("always = %+v", d)
	}
}
