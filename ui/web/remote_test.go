package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"pincer/core/agent"
	"pincer/core/app"
	"pincer/core/event"
)

// TestAnswerARequestOfAnotherRun: a turn runs in another Run over the same
// store (a workbench's, as another process's: its own agent and lease); the
// server lists its pending Edit from the log (the session's pending and GET
// /api/approvals), and the answer POSTed here reaches that Run's approval
// queue through the store: the edit is made, the resolution names this
// server as the attached answerer, and a second answer is not_found.
func TestAnswerARequestOfAnotherRun(t *testing.T) {
	e := newTestEnv(t, editScript()...)
	setup, err := app.Prepare(app.Options{Dir: e.repo, BaseURL: e.fake.BaseURL(), NoSandbox: true, Command: "pincer"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	queue := app.NewApprovalQueue()
	run, err := setup.StartShared(ctx, queue, e.store)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	be := &app.Backend{Agent: run.Agent, Store: run.Store, Approvals: queue}
	id := run.SessionID
	done := make(chan agent.TurnResult, 1)
	go func() {
		res, err := be.Submit(ctx, id, "change world to pincer")
		if err != nil {
			t.Errorf("the other Run's Submit: %v", err)
		}
		done <- res
	}()

	var detail SessionDetail
	for deadline := time.Now().Add(10 * time.Second); len(detail.Pending) == 0 && time.Now().Before(deadline); {
		e.call("GET", "/api/sessions/"+id, nil, http.StatusOK, &detail)
		time.Sleep(10 * time.Millisecond)
	}
	if len(detail.Pending) != 1 || detail.Pending[0].Name != "Edit" || detail.Pending[0].SessionID != id ||
		!strings.Contains(detail.Pending[0].Diff, "+hello pincer") {
		t.Fatalf("pending of the watched session %+v", detail.Pending)
	}
	rid := detail.Pending[0].RequestID
	var list struct{ Approvals []Approval }
	e.call("GET", "/api/approvals", nil, http.StatusOK, &list)
	if len(list.Approvals) != 1 || list.Approvals[0].RequestID != rid {
		t.Fatalf("approvals %+v", list.Approvals)
	}
	if got := e.read("hello.txt"); got != "hello world\n" {
		t.Fatalf("the file changed before the answer: %q", got)
	}
	var res struct{ Resolved, Remote bool }
	e.call("POST", "/api/approvals/"+rid, map[string]string{"decision": "allow"}, http.StatusOK, &res)
	if !res.Resolved || !res.Remote {
		t.Fatalf("answer = %+v", res)
	}
	select {
	case r := <-done:
		if r.Outcome != agent.OutcomeCompleted {
			t.Fatalf("the other Run's turn = %+v", r)
		}
	case <-ctx.Done():
		t.Fatal("the other Run kept waiting for the answer")
	}
	if got := e.read("hello.txt"); got != "hello pincer\n" {
		t.Fatalf("hello.txt = %q after allow", got)
	}
	evs, err := e.store.Log().Read(ctx, id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var resolved event.PermissionResolvedData
	for _, ev := range evs {
		if ev.Type == event.PermissionResolved {
			_ = ev.Decode(&resolved)
		}
	}
	if resolved.RequestID != rid || resolved.Decision != "allow" || !strings.Contains(resolved.By, "pincer serve") {
		t.Fatalf("permission.resolved %+v", resolved)
	}
	e.call("GET", "/api/sessions/"+id, nil, http.StatusOK, &detail)
	if len(detail.Pending) != 0 {
		t.Fatalf("pending after the answer %+v", detail.Pending)
	}
	if b := e.call("POST", "/api/approvals/"+rid, map[string]string{"decision": "deny"}, http.StatusNotFound, nil); errorCode(b) != CodeNotFound {
		t.Fatalf("second answer: %s", b)
	}
}
