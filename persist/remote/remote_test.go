package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/persist"
	"pincer/persist/memory"
)

// socketDir returns a short private directory for sockets (t.TempDir can exceed
// the ~100 bytes a socket path may have).
func socketDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "pst")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// serve starts a Server of backing on socket.
func serve(t testing.TB, backing persist.Store, socket string) *Server {
	t.Helper()
	l, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(backing, "test", "")
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return srv
}

// dial opens a Client of the server on socket (never starting a daemon).
func dial(t testing.TB, socket string) *Client {
	t.Helper()
	c, err := Open(context.Background(), Options{Socket: socket})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestRemoteFollowAcrossClients(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r := serveRemote(t, memory.New())
	other := dial(t, r.socket)
	driver, watcher := event.NewLog(r.Client), event.NewLog(other)
	got := make(chan event.Event, 100)
	done := make(chan error, 1)
	go func() {
		done <- watcher.Follow(ctx, "s", 0, func(ev event.Event) error {
			got <- ev
			if ev.Type == event.TurnCompleted {
				return event.ErrStop
			}
			return nil
		})
	}()
	// Two logs (as two processes) append to one session at once: the daemon
	// numbers them, so nothing forks or collides.
	var wg sync.WaitGroup
	for _, log := range []*event.Log{driver, watcher} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				if _, err := log.Emit(ctx, event.MessageDelta, "s", "t", event.MessageDeltaData{Delta: fmt.Sprint(i)}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if _, err := driver.Emit(ctx, event.TurnCompleted, "s", "t", event.TurnCompletedData{StopReason: "stop"}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("Follow: %v", err)
	}
	close(got)
	want := uint64(1)
	for ev := range got {
		if ev.Sequence != want {
			t.Fatalf("watched sequence %d, want %d", ev.Sequence, want)
		}
		want++
	}
	if want != 42 {
		t.Fatalf("watched %d events, want 41", want-1)
	}
}

func TestRemoteRetryStoresOnce(t *testing.T) {
	ctx := context.Background()
	r := serveRemote(t, memory.New())
	srv := r.srv
	m := message.NewText(message.RoleUser, "hi")
	m.SessionID, m.ID = "s", "fixed-id"
	ev, _ := event.New(event.TurnStarted, "s", "t", event.TurnStartedData{Input: "hi"})
	ev.Timestamp = t0
	audit := persist.AuditEntry{SessionID: "s", Tool: "Bash", Decision: "allow", By: "user", Time: t0}
	for attempt := range 2 {
		retry := attempt == 1 // the first attempt "lost its answer"
		if _, err := srv.dispatch(ctx, "AppendMessage", "c", retry, wireArgs{Message: &m}); err != nil {
			t.Fatal(err)
		}
		if _, err := srv.dispatch(ctx, "AppendEventNext", "c", retry, wireArgs{Event: &ev}); err != nil {
			t.Fatal(err)
		}
		if _, err := srv.dispatch(ctx, "AppendAudit", "c", retry, wireArgs{Audit: &audit}); err != nil {
			t.Fatal(err)
		}
	}
	msgs, _ := r.ListMessages(ctx, "s")
	evs, _ := r.ListEvents(ctx, "s", 0, 0)
	entries, _ := r.ListAudit(ctx, "s", 0)
	if len(msgs) != 1 || len(evs) != 1 || len(entries) != 1 {
		t.Fatalf("after a retry: %d messages, %d events, %d audit entries; want 1 each", len(msgs), len(evs), len(entries))
	}
	// A retry of something new is stored.
	ev.Timestamp = t0.Add(time.Second)
	if out, err := srv.dispatch(ctx, "AppendEventNext", "c", true, wireArgs{Event: &ev}); err != nil || out.(appended).Sequence != 2 {
		t.Fatalf("new event on retry: %v, %v", out, err)
	}
	if err := r.PutSession(ctx, persist.Session{ID: "s"}); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.dispatch(ctx, "DeleteSession", "c", false, wireArgs{ID: "s"}); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.dispatch(ctx, "DeleteSession", "c", true, wireArgs{ID: "s"}); err != nil {
		t.Fatalf("retried delete: %v", err)
	}
}

func TestRemoteProtocolMismatch(t *testing.T) {
	r := serveRemote(t, memory.New())
	// An older or newer client gets a 409 and one clear line.
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return net.Dial("unix", r.socket)
	}}}
	req, _ := http.NewRequest(http.MethodPost, "http://x/v1/ListSessions", strings.NewReader("{}"))
	req.Header.Set(hdrProtocol, "0")
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusConflict || !strings.Contains(string(body), `speaks store protocol`) {
		t.Fatalf("old client: %s %s", resp.Status, body)
	}
	// A client that meets a daemon of another version says so, with its pid.
	other := filepath.Join(socketDir(t), "o.sock")
	l, err := net.Listen("unix", other)
	if err != nil {
		t.Fatal(err)
	}
	fake := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(hdrProtocol, "2")
		w.Header().Set(hdrPID, "4242")
		w.Header().Set(hdrVersion, "v9")
		w.WriteHeader(http.StatusConflict)
		_, _ = io.WriteString(w, `{"error":{"message":"protocol"}}`)
	})}
	go fake.Serve(l)
	defer fake.Close()
	c := dial(t, other)
	_, err = c.ListSessions(context.Background(), 0)
	if !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), "pid 4242") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("ListSessions against protocol 2: %v", err)
	}
}

func TestRemoteAbandonedTurnClosedAndLeaseReleased(t *testing.T) {
	ctx := context.Background()
	r := serveRemote(t, memory.New())
	driver := dial(t, r.socket)
	if err := driver.PutSession(ctx, persist.Session{ID: "s", Status: "running", UpdatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if ok, _, err := driver.AcquireLease(ctx, "s", "pid:999999/x", time.Hour); !ok || err != nil {
		t.Fatalf("AcquireLease = %v, %v", ok, err)
	}
	log := event.NewLog(driver)
	for _, e := range []struct {
		typ event.Type
		p   any
	}{
		{event.TurnStarted, event.TurnStartedData{Input: "go"}},
		{event.ToolStarted, event.ToolStartedData{ToolCallID: "c1", Name: "Bash"}},
		{event.ToolCompleted, event.ToolCompletedData{ToolCallID: "c1", Name: "Bash"}},
		{event.ToolStarted, event.ToolStartedData{ToolCallID: "c2", Name: "Bash"}},
		{event.PermissionRequested, event.PermissionRequestedData{RequestID: "r1", ToolCallID: "c3", Name: "Edit"}},
	} {
		if _, err := log.Emit(ctx, e.typ, "s", "turn-1", e.p); err != nil {
			t.Fatal(err)
		}
	}
	driver.Close() // as a killed process: its connection ends, the lease is still held
	// The lease is free long before its TTL: the first acquire may race the
	// daemon noticing, the next ones do not.
	deadline := time.Now().Add(5 * time.Second)
	for {
		ok, held, err := r.AcquireLease(ctx, "s", "pid:2/next", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the lease of a gone client is still held: %+v", held)
		}
		time.Sleep(5 * time.Millisecond)
	}
	evs, _ := r.ListEvents(ctx, "s", 5, 0)
	var got []string
	for _, ev := range evs {
		got = append(got, string(ev.Type))
	}
	if fmt.Sprint(got) != "[permission.resolved tool.completed turn.failed]" {
		t.Fatalf("closing events %v", got)
	}
	var payloads []any
	for _, ev := range evs {
		p, err := ev.Payload()
		if err != nil {
			t.Fatal(err)
		}
		payloads = append(payloads, p)
	}
	res, _ := payloads[0].(event.PermissionResolvedData)
	tc, _ := payloads[1].(event.ToolCompletedData)
	tf, _ := payloads[2].(event.TurnFailedData)
	if res.RequestID != "r1" || res.Decision != "deny" || res.By != abandonedBy || tc.ToolCallID != "c2" || !tc.IsError ||
		tf.Reason != event.ReasonInternal || !strings.Contains(tf.Error, "pid 999999") || evs[2].TurnID != "turn-1" {
		t.Fatalf("closing events: %+v %+v %+v", res, tc, tf)
	}
	if s, _ := r.GetSession(ctx, "s"); s.Status != "failed" {
		t.Fatalf("session status %q, want failed", s.Status)
	}
	// A client that ends without a lease leaves nothing behind.
	idle := dial(t, r.socket)
	idle.Close()
	if last, _ := r.LastEventSequence(ctx, "s"); last != 8 {
		t.Fatalf("last event %d, want 8", last)
	}
}

func TestRemoteIdleAndClose(t *testing.T) {
	r := serveRemote(t, memory.New())
	<-r.Client.attached
	if r.srv.IdleFor() != 0 {
		t.Fatal("a server with an attached client is idle")
	}
	r.Client.Close()
	deadline := time.Now().Add(5 * time.Second)
	for r.srv.IdleFor() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the server never became idle after its client left")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if !r.srv.CloseIfIdle(0) {
		t.Fatal("CloseIfIdle refused")
	}
	if _, err := Open(context.Background(), Options{Socket: r.socket}); err == nil {
		t.Fatal("connected to a closed server")
	}
}
