package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"pincer/core/mcp"
	"pincer/core/mcp/mcptest"
	"pincer/tools"
)

// waitFor polls cond until it holds or 20 s pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Killing the server during a call gives a tool result naming the server and
// the failure; the tools go while it is down; it reconnects and a later call works.
func TestKillMidCallReconnects(t *testing.T) {
	reg := tools.NewRegistry()
	m := startManager(t, mcp.Options{Registry: reg, MinBackoff: 100 * time.Millisecond}, mcptest.Everything(t, "everything"))
	var mu sync.Mutex
	var seen []mcp.Status
	cancel := m.Subscribe(func(st mcp.ServerState) { mu.Lock(); seen = append(seen, st.Status); mu.Unlock() })
	defer cancel()
	pid := m.PID("everything")
	if pid == 0 {
		t.Fatal("no pid")
	}
	tl, _ := reg.Get("mcp__everything__trigger-long-running-operation")
	done := make(chan tools.Result, 1)
	go func() {
		res, err := tl.Run(context.Background(), nil, json.RawMessage(`{"duration":10,"steps":5}`))
		if err != nil {
			res = tools.Result{Output: "error: " + err.Error()}
		}
		done <- res
	}()
	time.Sleep(300 * time.Millisecond)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var res tools.Result
	select {
	case res = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not end when its server died")
	}
	if !res.IsError || !strings.Contains(res.Output, "MCP server everything disconnected") || !strings.Contains(res.Output, "reconnecting") {
		t.Errorf("result: %+v", res)
	}
	waitFor(t, "reconnect", func() bool {
		st, _ := m.State("everything")
		return st.Status == mcp.StatusReady && m.PID("everything") != pid && m.PID("everything") != 0
	})
	if got := call(t, reg, nil, "mcp__everything__echo", `{"message":"back"}`); !strings.Contains(got.Output, "back") {
		t.Errorf("echo after reconnect: %+v", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(joinStatuses(seen), "failed connecting ready") {
		t.Errorf("statuses: %v", seen)
	}
}

func joinStatuses(ss []mcp.Status) string {
	var b []string
	for _, s := range ss {
		b = append(b, strings.ReplaceAll(string(s), " ", "_"))
	}
	return strings.Join(b, " ")
}

// Close ends the server's whole process group.
func TestCloseKillsProcessGroup(t *testing.T) {
	m := startManager(t, mcp.Options{}, mcptest.Everything(t, "everything"))
	pid := m.PID("everything")
	m.Close()
	if err := syscall.Kill(-pid, 0); err == nil {
		t.Fatalf("process group %d still alive after Close", pid)
	}
	if len(m.Registry().Names()) != 0 {
		t.Errorf("tools left after Close: %v", m.Registry().Names())
	}
}

// The Go SDK's server over streamable HTTP and over SSE, with headers; a
// changed tool list is picked up.
func TestHTTPTransports(t *testing.T) {
	for _, sse := range []bool{false, true} {
		name := map[bool]string{false: "gohttp", true: "gosse"}[sse]
		t.Run(name, func(t *testing.T) {
			g := mcptest.NewGoServer(t, sse)
			tr := mcp.TransportHTTP
			if sse {
				tr = mcp.TransportSSE
			}
			reg := tools.NewRegistry()
			m := startManager(t, mcp.Options{Registry: reg}, mcp.ServerConfig{Name: name, Transport: tr, URL: g.URL,
				Headers: map[string]string{"X-Pincer-Test": "header-value"}, Approved: true})
			if got := call(t, reg, nil, "mcp__"+name+"__greet", `{"name":"ada"}`); got.Output != "hello, ada" {
				t.Errorf("greet: %+v", got)
			}
			if h, _ := g.Headers.Load().(http.Header); h.Get("X-Pincer-Test") != "header-value" {
				t.Errorf("header not sent: %v", h)
			}
			if !strings.Contains(m.Instructions(), mcptest.Instructions) {
				t.Errorf("instructions: %q", m.Instructions())
			}
			g.AddTool("later")
			waitFor(t, "the changed tool list", func() bool { _, ok := reg.Get("mcp__" + name + "__later"); return ok })
			if got := call(t, reg, nil, "mcp__"+name+"__later", `{}`); got.Output != "tool later ran" {
				t.Errorf("later: %+v", got)
			}
		})
	}
}

// A server that cannot start fails with a reason and is retried.
func TestFailingServerRetries(t *testing.T) {
	m := mcp.NewManager(mcp.Options{MinBackoff: 50 * time.Millisecond, MaxBackoff: 100 * time.Millisecond})
	defer m.Close()
	var mu sync.Mutex
	failures := 0
	cancel := m.Subscribe(func(st mcp.ServerState) {
		if st.Status == mcp.StatusFailed {
			mu.Lock()
			failures++
			mu.Unlock()
		}
	})
	defer cancel()
	m.Start(context.Background(), []mcp.ServerConfig{{Name: "nope", Command: "/nonexistent/server", Approved: true}})
	if !m.WaitReady(context.Background(), 10*time.Second) {
		t.Fatal("not settled")
	}
	waitFor(t, "three attempts", func() bool { mu.Lock(); defer mu.Unlock(); return failures >= 3 })
	st, _ := m.State("nope")
	if !strings.Contains(st.Reason, "no such file") && st.Status != mcp.StatusConnecting {
		t.Fatalf("state: %+v", st)
	}
}

// An HTTP server that goes away is noticed before any call (by the keepalive
// ping, or its broken event stream, whichever comes first): failed, its tools
// removed.
func TestHTTPServerGoneIsNoticed(t *testing.T) {
	g := mcptest.NewGoServer(t, false)
	reg := tools.NewRegistry()
	m := startManager(t, mcp.Options{Registry: reg, KeepAlive: 100 * time.Millisecond, MinBackoff: time.Second},
		mcp.ServerConfig{Name: "go", Transport: mcp.TransportHTTP, URL: g.URL, Approved: true})
	g.Close()
	waitFor(t, "failed", func() bool { st, _ := m.State("go"); return st.Status == mcp.StatusFailed })
	if _, ok := reg.Get("mcp__go__greet"); ok {
		t.Error("the gone server's tool is still offered")
	}
}

// A call the server does not answer within CallTimeout is an error result
// naming the server, the tool and the bound.
func TestCallTimeout(t *testing.T) {
	reg := tools.NewRegistry()
	startManager(t, mcp.Options{Registry: reg, CallTimeout: 300 * time.Millisecond}, mcptest.Everything(t, "everything"))
	got := call(t, reg, nil, "mcp__everything__trigger-long-running-operation", `{"duration":5,"steps":2}`)
	if !got.IsError || !strings.Contains(got.Output, "did not answer trigger-long-running-operation within 300ms") {
		t.Errorf("result: %+v", got)
	}
	if got := call(t, reg, nil, "mcp__everything__echo", `{"message":"still here"}`); !strings.Contains(got.Output, "still here") {
		t.Errorf("after a timeout: %+v", got)
	}
}
