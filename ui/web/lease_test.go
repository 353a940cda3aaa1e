package web

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"pincer/core/agent"
	"pincer/core/app"
	"pincer/core/provider/openai/openaitest"
)

// TestTurnRefusedWhileAnotherRunHoldsTheSession: while another Run (as
// `pincer run` would, here over the same store) runs a turn of the
// session, a turn over HTTP is 409 lease_held naming the holder; watching
// it streams that other Run's events.
func TestTurnRefusedWhileAnotherRunHoldsTheSession(t *testing.T) {
	e := newTestEnv(t, openaitest.Reply{Text: "slowly, from the other run", Hold: 20 * time.Second})
	id := e.newSession()
	setup, err := app.Prepare(app.Options{Dir: e.repo, Session: id, BaseURL: e.fake.BaseURL(), NoSandbox: true, Command: "pincer run"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := setup.StartShared(context.Background(), nil, e.store)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st := e.stream(ctx, id, "", nil)
	turnCtx, stopTurn := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		be := &app.Backend{Agent: other.Agent, Store: other.Store}
		_, _ = be.Submit(turnCtx, id, "take your time")
	}()
	st.until(t, "message.delta") // the other Run holds the lease and streams
	b := e.call("POST", "/api/sessions/"+id+"/turns", map[string]string{"input": "me too"}, http.StatusConflict, nil)
	want := fmt.Sprintf("pid %d (pincer run on ", os.Getpid())
	if errorCode(b) != CodeLeaseHeld || !strings.Contains(string(b), want) {
		t.Fatalf("turn on a held session: %s, want lease_held naming %q", b, want)
	}
	var s Session
	e.call("GET", "/api/sessions/"+id, nil, http.StatusOK, &s)
	if !s.Running || s.Status != "running" {
		t.Fatalf("held session %+v", s)
	}
	if b := e.call("POST", "/api/sessions/"+id+"/cancel", map[string]string{}, http.StatusConflict, nil); errorCode(b) != CodeNoTurn {
		t.Fatalf("cancel of another process's turn: %s", b)
	}
	stopTurn()
	<-done
	st.until(t, "turn.cancelled")
}

// TestTurnRunningAndCancel: a second turn while one runs is 409
// turn_running; cancel stops it (recorded as turn.cancelled, "cancelled by
// user"); a second cancel right after, and one with none running, are 409
// no_turn.
func TestTurnRunningAndCancel(t *testing.T) {
	e := newTestEnv(t, openaitest.Reply{Text: "a long answer", Hold: 20 * time.Second}, openaitest.Reply{Text: "again"})
	id := e.newSession()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st := e.stream(ctx, id, "", nil)
	e.call("POST", "/api/sessions/"+id+"/turns", map[string]string{"input": "go"}, http.StatusAccepted, nil)
	st.until(t, "message.delta")
	if b := e.call("POST", "/api/sessions/"+id+"/turns", map[string]string{"input": "again"}, http.StatusConflict, nil); errorCode(b) != CodeTurnRunning {
		t.Fatalf("second turn: %s", b)
	}
	var res struct{ Cancelled bool }
	e.call("POST", "/api/sessions/"+id+"/cancel", map[string]string{}, http.StatusOK, &res)
	if b := e.call("POST", "/api/sessions/"+id+"/cancel", map[string]string{}, http.StatusConflict, nil); errorCode(b) != CodeNoTurn {
		t.Fatalf("a second cancel back to back: %s", b) // one cancel per turn, as the contract
	}
	evs := st.until(t, "turn.cancelled")
	if last := evs[len(evs)-1]; !res.Cancelled || !strings.Contains(last.Data, "cancelled by user") {
		t.Fatalf("cancel: %v, event %s", res, last.Data)
	}
	deadline := time.Now().Add(10 * time.Second)
	for e.srv.turnRunning(id) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if b := e.call("POST", "/api/sessions/"+id+"/cancel", map[string]string{}, http.StatusConflict, nil); errorCode(b) != CodeNoTurn {
		t.Fatalf("cancel with no turn: %s", b)
	}
	e.call("POST", "/api/sessions/"+id+"/turns", map[string]string{"input": "again"}, http.StatusAccepted, nil)
	st.until(t, "turn.completed")
}

// TestCloseCancelsRunningTurns: the server's Close (pincer serve's SIGTERM)
// cancels a running turn with the signal's cause and waits until it is
// recorded.
func TestCloseCancelsRunningTurns(t *testing.T) {
	e := newTestEnv(t, openaitest.Reply{Text: "a long answer", Hold: 20 * time.Second})
	id := e.newSession()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st := e.stream(ctx, id, "", nil)
	e.call("POST", "/api/sessions/"+id+"/turns", map[string]string{"input": "go"}, http.StatusAccepted, nil)
	st.until(t, "message.delta")
	if err := e.srv.Close(&agent.StopCause{Reason: "terminated (SIGTERM)"}); err != nil {
		t.Fatal(err)
	}
	evs, err := e.store.Log().Read(ctx, id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	last := evs[len(evs)-1]
	if last.Type != "turn.cancelled" || !strings.Contains(string(last.Data), "terminated (SIGTERM)") {
		t.Fatalf("last event after Close: %s %s", last.Type, last.Data)
	}
	if resp, _ := e.do("POST", "/api/sessions/"+id+"/turns", map[string]string{"input": "more"}, nil); resp.StatusCode == http.StatusAccepted {
		t.Fatal("a turn accepted after Close")
	}
}
