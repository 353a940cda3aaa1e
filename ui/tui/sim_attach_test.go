package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/agent"
	"pincer/core/app"
	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
	"pincer/persist"
	"pincer/persist/memory"
	"pincer/sandbox"
	"pincer/tools"
)

// agentOn builds an agent and its backend over store in workspace ws, as
// another pincer process sharing the store daemon would.
func agentOn(t *testing.T, store persist.Store, ws *sandbox.Workspace, prov provider.Provider) *app.Backend {
	t.Helper()
	q := app.NewApprovalQueue()
	ag, err := agent.New(agent.Config{Store: store, Provider: prov, Model: "m", ModelName: "fake/m",
		Tools: tools.Default(), Workspace: ws, SystemPrompt: "You are a test.", PermissionMode: permission.ModeDefault,
		Approver: q, DeltaInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return &app.Backend{Agent: ag, Store: store, Approvals: q}
}

// runningElsewhere starts process A's turn (a Bash call that waits for
// approval) on a new session and returns A, a backend B on the same store,
// the session, the workspace root and A's turn result.
func runningElsewhere(t *testing.T, bStep ...providertest.Step) (a, b *app.Backend, sid, root string, done <-chan agent.TurnResult) {
	t.Helper()
	ws, err := sandbox.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	store := memory.New()
	a = agentOn(t, store, ws, &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Bash", `{"command":"touch marker"}`)),
		providertest.Text("A is done."),
	}})
	b = agentOn(t, store, ws, &providertest.Scripted{Steps: bStep})
	s, err := a.Agent.CreateSession(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ch, finished := make(chan agent.TurnResult, 1), make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); <-finished })
	go func() {
		defer close(finished)
		res, _ := a.Submit(ctx, s.ID, "make the marker")
		ch <- res
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !hasEvent(t, store, s.ID, event.PermissionRequested) {
		if time.Now().After(deadline) {
			t.Fatal("A's request never came")
		}
		time.Sleep(5 * time.Millisecond)
	}
	return a, b, s.ID, ws.Root(), ch
}

func hasEvent(t *testing.T, store persist.Store, sid string, typ event.Type) bool {
	evs, err := store.ListEvents(context.Background(), sid, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if ev.Type == typ {
			return true
		}
	}
	return false
}

// TestAttachToARunningSession: a workbench opened on a session another
// process runs shows its turn live (not interrupted), says which process runs
// it, and approving its pending Bash call there makes that process run it.
func TestAttachToARunningSession(t *testing.T) {
	a, b, sid, root, done := runningElsewhere(t)
	w := startBench(t, 160, 50, Options{})
	w.w.Attach(b, sid)
	s := w.waitText("3 Approvals (1)", "awaiting approval", "by pid ")
	if strings.Contains(s, "interrupted") {
		t.Fatalf("the live turn of another process is shown interrupted:\n%s", s)
	}
	w.key(tcell.KeyRune, '3', tcell.ModAlt)
	w.afterReading("y")
	select {
	case res := <-done:
		if res.Outcome != agent.OutcomeCompleted {
			t.Fatalf("A's turn = %+v", res)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("A never acted on the answer given in the attached workbench")
	}
	if _, err := os.Stat(filepath.Join(root, "marker")); err != nil {
		t.Fatalf("A did not run the approved command: %v", err)
	}
	s = w.waitText("A is done.", "3 Approvals (0)")
	if strings.Contains(s, "by pid ") || strings.Contains(s, "interrupted") {
		t.Errorf("after A's turn the status still names A or says interrupted:\n%s", s)
	}
	_ = a
}

// TestAttachedPromptWaitsForTheTurn: a prompt typed while another process's
// turn runs is queued, labelled, and runs here once that turn ends.
func TestAttachedPromptWaitsForTheTurn(t *testing.T) {
	a, b, sid, _, done := runningElsewhere(t, providertest.Text("B answers."))
	w := startBench(t, 160, 50, Options{})
	w.w.Attach(b, sid)
	w.waitText("3 Approvals (1)", "by pid ")
	w.typeText("from B")
	w.key(tcell.KeyEnter, 0, tcell.ModNone)
	w.waitText("queued «from B»: waits for the turn of pid ", "Queued: from B", "prompt queued: it is sent when the turn of pid ")
	if hasEvent(t, b.Store, sid, event.PermissionAnswered) {
		t.Fatal("typing answered something")
	}
	req := ""
	for _, ev := range events(t, a.Agent, sid) {
		if ev.Type == event.PermissionRequested {
			p, _ := ev.Payload()
			req = p.(event.PermissionRequestedData).RequestID
		}
	}
	if err := a.Resolve(req, permission.Deny, permission.ScopeOnce, "not now"); err != nil {
		t.Fatal(err)
	}
	<-done
	w.waitText("B answers.")
	var inputs []string
	for _, ev := range events(t, a.Agent, sid) {
		if ev.Type == event.TurnStarted {
			p, _ := ev.Payload()
			inputs = append(inputs, p.(event.TurnStartedData).Input)
		}
	}
	if len(inputs) != 2 || inputs[1] != "from B" {
		t.Fatalf("turns = %q, want A's then B's queued prompt", inputs)
	}
}
