package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/agent"
	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist"
	"pincer/persist/memory"
	"pincer/sandbox"
	"pincer/tools"
)

// attachPair is two backends on one store, as two pincer processes sharing
// the store daemon: A runs the turns, B is a workbench attached to A's session.
type attachPair struct {
	store   persist.Store
	a, b    *Backend
	root    string
	session string
}

func newAttachPair(t *testing.T, steps ...providertest.Step) *attachPair {
	t.Helper()
	ws, err := sandbox.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	store := memory.New()
	mk := func(steps []providertest.Step) *Backend {
		q := NewApprovalQueue()
		ag, err := agent.New(agent.Config{Store: store, Provider: &providertest.Scripted{Steps: steps}, Model: "m",
			ModelName: "fake/m", Tools: tools.Default(), Workspace: ws, SystemPrompt: "test",
			PermissionMode: permission.ModeDefault, Approver: q, DeltaInterval: time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		return &Backend{Agent: ag, Store: store, Approvals: q}
	}
	p := &attachPair{store: store, a: mk(steps), b: mk(nil), root: ws.Root()}
	s, err := p.a.Agent.CreateSession(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p.session = s.ID
	return p
}

// submitA runs a turn of A in the background; the result comes on the channel.
func (p *attachPair) submitA(t *testing.T, ctx context.Context, input string) <-chan agent.TurnResult {
	done := make(chan agent.TurnResult, 1)
	go func() {
		res, err := p.a.Submit(ctx, p.session, input)
		if err != nil {
			t.Errorf("A's Submit: %v", err)
		}
		done <- res
	}()
	return done
}

// waitEvent waits for the first event of type typ in the session's log.
func (p *attachPair) waitEvent(t *testing.T, sessionID string, typ event.Type) event.Event {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		evs, _ := p.store.ListEvents(context.Background(), sessionID, 0, 0)
		for _, ev := range evs {
			if ev.Type == typ {
				return ev
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no %s in %s", typ, sessionID)
	return event.Event{}
}

func bashTouch(file string) []providertest.Step {
	return []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Bash", `{"command":"touch `+file+`"}`)),
		providertest.Text("done"),
	}
}

func requestOf(t *testing.T, ev event.Event) event.PermissionRequestedData {
	t.Helper()
	p, err := ev.Payload()
	if err != nil {
		t.Fatal(err)
	}
	return p.(event.PermissionRequestedData)
}

func resolvedOf(t *testing.T, p *attachPair) event.PermissionResolvedData {
	t.Helper()
	ev := p.waitEvent(t, p.session, event.PermissionResolved)
	d, err := ev.Payload()
	if err != nil {
		t.Fatal(err)
	}
	return d.(event.PermissionResolvedData)
}

// TestAttachedAnswerRunsTheCall: B, attached to the session A runs, sees
// who runs it and approves A's pending Bash call through the store; A runs
// the command and records the answer as its permission.resolved.
func TestAttachedAnswerRunsTheCall(t *testing.T) {
	p := newAttachPair(t, bashTouch("marker")...)
	ctx := context.Background()
	done := p.submitA(t, ctx, "make the marker")
	req := requestOf(t, p.waitEvent(t, p.session, event.PermissionRequested))

	runner, err := p.b.Runner(ctx, p.session)
	if err != nil || !strings.Contains(runner, "pid ") {
		t.Fatalf("B's Runner = %q, %v; want A's process", runner, err)
	}
	if mine, _ := p.a.Runner(ctx, p.session); mine != "" {
		t.Errorf("A's own Runner = %q, want \"\" (it runs it)", mine)
	}
	if err := p.b.AnswerRemote(ctx, p.session, req.RequestID, permission.Allow, permission.ScopeOnce, "allowed by the user"); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.Outcome != agent.OutcomeCompleted {
		t.Fatalf("A's turn = %+v", res)
	}
	if _, err := os.Stat(filepath.Join(p.root, "marker")); err != nil {
		t.Errorf("the approved command did not run: %v", err)
	}
	r := resolvedOf(t, p)
	if r.Decision != "allow" || r.RequestID != req.RequestID || !strings.Contains(r.By, "attached") {
		t.Errorf("resolved = %+v", r)
	}
	if runner, _ := p.b.Runner(ctx, p.session); runner != "" {
		t.Errorf("after the turn Runner = %q, want free", runner)
	}
	if err := p.b.AnswerRemote(ctx, p.session, req.RequestID, permission.Allow, permission.ScopeOnce, ""); !errors.Is(err, ErrNotRunElsewhere) {
		t.Errorf("answering a free session: %v, want ErrNotRunElsewhere", err)
	}
}

// TestFirstAnswerWins: the local keypress comes first (deny); the attached
// workbench's allow that follows changes nothing, and the command never runs.
func TestFirstAnswerWins(t *testing.T) {
	p := newAttachPair(t, bashTouch("marker")...)
	ctx := context.Background()
	done := p.submitA(t, ctx, "make the marker")
	req := requestOf(t, p.waitEvent(t, p.session, event.PermissionRequested))
	for !p.a.Approvals.Waiting(req.RequestID) {
		time.Sleep(time.Millisecond)
	}
	if err := p.a.Resolve(req.RequestID, permission.Deny, permission.ScopeOnce, "no"); err != nil {
		t.Fatal(err)
	}
	_ = p.b.AnswerRemote(ctx, p.session, req.RequestID, permission.Allow, permission.ScopeAlways, "")
	<-done
	if r := resolvedOf(t, p); r.Decision != "deny" || r.By != "user" {
		t.Errorf("resolved = %+v, want the local deny", r)
	}
	if _, err := os.Stat(filepath.Join(p.root, "marker")); err == nil {
		t.Error("the command ran after the first answer denied it")
	}
}

// TestForeignAnswersAreIgnored: an answer in another session's log naming
// A's request, one for a request nobody asked, and a malformed one leave A
// waiting; the person's keypress then decides.
func TestForeignAnswersAreIgnored(t *testing.T) {
	p := newAttachPair(t, bashTouch("marker")...)
	ctx := context.Background()
	other, err := p.b.Agent.CreateSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	done := p.submitA(t, ctx, "make the marker")
	req := requestOf(t, p.waitEvent(t, p.session, event.PermissionRequested))
	log := p.b.Agent.Log()
	for _, a := range []struct {
		session string
		d       event.PermissionAnsweredData
	}{
		{other.ID, event.PermissionAnsweredData{RequestID: req.RequestID, Behavior: "allow", Scope: "always", By: "x"}},
		{p.session, event.PermissionAnsweredData{RequestID: "perm-not-asked", Behavior: "allow", Scope: "once"}},
		{p.session, event.PermissionAnsweredData{RequestID: req.RequestID, Behavior: "yes", Scope: "once"}},
		{p.session, event.PermissionAnsweredData{RequestID: req.RequestID, Behavior: "allow", Scope: "forever"}},
	} {
		if _, err := log.Emit(ctx, event.PermissionAnswered, a.session, "", a.d); err != nil {
			t.Fatal(err)
		}
	}
	p.waitEvent(t, other.ID, event.PermissionAnswered)
	time.Sleep(100 * time.Millisecond) // the follower has read them
	if !p.a.Approvals.Waiting(req.RequestID) {
		t.Fatal("a foreign or malformed answer decided A's request")
	}
	if err := p.a.Resolve(req.RequestID, permission.Deny, permission.ScopeOnce, "no"); err != nil {
		t.Fatal(err)
	}
	<-done
	if r := resolvedOf(t, p); r.Decision != "deny" {
		t.Errorf("resolved = %+v", r)
	}
}

// TestAnswerFollowerDelivers is the follower's rule as a table: which
// answers reach the queue.
func TestAnswerFollowerDelivers(t *testing.T) {
	req := func(id string) event.Event {
		ev, _ := event.New(event.PermissionRequested, "s", "t", event.PermissionRequestedData{RequestID: id})
		return ev
	}
	res := func(id string) event.Event {
		ev, _ := event.New(event.PermissionResolved, "s", "t", event.PermissionResolvedData{RequestID: id, Decision: "deny"})
		return ev
	}
	ans := func(id, behavior, scope string) event.Event {
		ev, _ := event.New(event.PermissionAnswered, "s", "", event.PermissionAnsweredData{RequestID: id, Behavior: behavior, Scope: scope, By: "pid 1"})
		return ev
	}
	for _, tc := range []struct {
		name      string
		log       []event.Event
		delivered bool
		scope     permission.Scope
	}{
		{"pending allow once", []event.Event{req("r"), ans("r", "allow", "once")}, true, permission.ScopeOnce},
		{"pending allow always", []event.Event{req("r"), ans("r", "allow", "always")}, true, permission.ScopeAlways},
		{"empty scope is once", []event.Event{req("r"), ans("r", "allow", "")}, true, permission.ScopeOnce},
		{"deny is once", []event.Event{req("r"), ans("r", "deny", "always")}, true, permission.ScopeOnce},
		{"never asked", []event.Event{ans("r", "allow", "once")}, false, ""},
		{"already resolved", []event.Event{req("r"), res("r"), ans("r", "allow", "once")}, false, ""},
		{"unknown behavior", []event.Event{req("r"), ans("r", "ask", "once")}, false, ""},
		{"unknown scope", []event.Event{req("r"), ans("r", "allow", "project")}, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := NewApprovalQueue()
			f := &answerFollower{queue: q, pending: map[string]bool{}}
			for _, ev := range tc.log {
				f.apply(ev)
			}
			q.mu.Lock()
			got, ok := q.early["r"]
			q.mu.Unlock()
			if ok != tc.delivered || (ok && got.Scope != tc.scope) {
				t.Fatalf("delivered %v %+v, want %v scope %s", ok, got, tc.delivered, tc.scope)
			}
			if ok && got.Decision.By != "user (attached: pid 1)" {
				t.Errorf("By = %q", got.Decision.By)
			}
		})
	}
	t.Run("second answer dropped", func(t *testing.T) {
		q := NewApprovalQueue()
		f := &answerFollower{queue: q, pending: map[string]bool{}}
		f.apply(req("r"))
		f.apply(ans("r", "deny", "once"))
		f.apply(ans("r", "allow", "once"))
		if got := q.early["r"]; got.Decision.Behavior != permission.Deny {
			t.Fatalf("got %+v, want the first (deny)", got)
		}
	})
}
