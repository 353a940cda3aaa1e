package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/core/provider/openai/openaitest"
)

// deltaText is a reply the fake streams as n text deltas (it cuts text in
// pieces of 8 characters).
func deltaText(n int) string { return strings.Repeat("abcdefg ", n) }

// collect reads a stream until turn.completed and returns the ids and the
// text its deltas stream.
func collect(st *sseStream) (ids []string, text string, err error) {
	var b strings.Builder
	for {
		ev, err := st.next()
		if err != nil {
			return ids, b.String(), err
		}
		ids = append(ids, ev.ID)
		if ev.Type == "message.delta" {
			var d struct{ Delta, Kind string }
			if json.Unmarshal([]byte(ev.Data), &d) == nil && d.Kind == "text" {
				b.WriteString(d.Delta)
			}
		}
		if ev.Type == "turn.completed" {
			return ids, b.String(), nil
		}
	}
}

// smallBuffers makes the server's accepted connections' send buffers
// small, so a client that does not read blocks the server's writes to it.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(4096)
	}
	return c, err
}

// TestManyClientsGetEveryEventInOrder: 50 streams on one session during a
// turn each get every event of it, in order, none missed or repeated.
func TestManyClientsGetEveryEventInOrder(t *testing.T) {
	e := newTestEnv(t, openaitest.Reply{Text: deltaText(100), Pace: time.Millisecond})
	id := e.newSession()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const clients = 50
	streams := make([]*sseStream, clients)
	for i := range streams {
		streams[i] = e.stream(ctx, id, "", nil)
	}
	e.call("POST", "/api/sessions/"+id+"/turns", map[string]string{"input": "stream a lot"}, http.StatusAccepted, nil)
	got := make([][]string, clients)
	texts := make([]string, clients)
	errs := make([]error, clients)
	var wg sync.WaitGroup
	for i, st := range streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], texts[i], errs[i] = collect(st)
		}()
	}
	wg.Wait()
	evs, err := e.store.Log().Read(ctx, id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if errs[i] != nil {
			t.Fatalf("client %d: %v after %d events", i, errs[i], len(got[i]))
		}
		if texts[i] != deltaText(100) {
			t.Fatalf("client %d streamed %d of %d characters", i, len(texts[i]), len(deltaText(100)))
		}
		if len(got[i]) != len(evs) {
			t.Fatalf("client %d got %d events, the log has %d", i, len(got[i]), len(evs))
		}
		for j, s := range got[i] {
			if s != strconv.Itoa(j+1) {
				t.Fatalf("client %d: event %d has id %s", i, j, s)
			}
		}
	}
}

// TestSlowClientDoesNotHoldBackTheTurn: a client that never reads its
// stream (its socket buffers fill) neither stops the turn nor another
// client: each stream reads the log at its own pace.
func TestSlowClientDoesNotHoldBackTheTurn(t *testing.T) {
	const size = 1 << 12 // 32 KiB of text: more than the two sockets' buffers hold
	e := newTestEnvWith(t, func(hs *httptest.Server) { hs.Listener = smallBuffers{hs.Listener} }, openaitest.Reply{Text: deltaText(size)})
	id := e.newSession()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conn, err := net.Dial("tcp", e.hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetReadBuffer(4096)
	}
	fmt.Fprintf(conn, "GET /api/sessions/%s/events HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n", id, e.hs.Listener.Addr(), e.token)
	slow := bufio.NewReaderSize(conn, 16)
	status, err := slow.ReadString('\n')
	if err != nil || !strings.Contains(status, "200") {
		t.Fatalf("slow client's stream: %q %v", status, err)
	}
	reader := e.stream(ctx, id, "", nil)
	e.call("POST", "/api/sessions/"+id+"/turns", map[string]string{"input": "stream a lot"}, http.StatusAccepted, nil)
	ids, text, err := collect(reader) // the slow client reads nothing meanwhile
	if err != nil {
		t.Fatalf("the reading client: %v after %d events", err, len(ids))
	}
	if text != deltaText(size) {
		t.Fatalf("the reading client got %d of %d characters", len(text), len(deltaText(size)))
	}
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	for { // the slow client, reading at last, gets the whole turn too
		line, err := slow.ReadString('\n')
		if err != nil {
			t.Fatalf("the slow client's stream: %v", err)
		}
		if strings.HasPrefix(line, "event: turn.completed") {
			break
		}
	}
}

// BenchmarkServeTurn is one turn of 1,000 text deltas from a model
// streaming a delta a millisecond (submitted over HTTP, timed until its
// turn.completed is in the log) with no event stream open, and with 50
// clients streaming the session meanwhile (issue 18: the turn's duration
// within 10% of the same turn with no clients).
func BenchmarkServeTurn(b *testing.B) { benchClients(b, time.Millisecond) }

// BenchmarkServeTurnUnpaced is BenchmarkServeTurn with the deltas as fast
// as the fake sends them: the worst case, where the turn is all CPU.
func BenchmarkServeTurnUnpaced(b *testing.B) { benchClients(b, 0) }

// benchClients runs the two sub-benchmarks.
func benchClients(b *testing.B, pace time.Duration) {
	for _, clients := range []int{0, 50} {
		name := "NoClients"
		if clients > 0 {
			name = "FiftyClients"
		}
		b.Run(name, func(b *testing.B) { benchTurn(b, clients, pace) })
	}
}

func benchTurn(b *testing.B, clients int, pace time.Duration) {
	e := newTestEnv(b)
	e.srv.opts.Logf = nil
	id := e.newSession()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	counts := make([]int, clients)
	for i := range clients {
		st := e.stream(ctx, id, "", nil)
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := 0
			for {
				ev, err := st.next()
				if err != nil {
					return
				}
				n, _ := strconv.Atoi(ev.ID)
				if n != last+1 {
					b.Errorf("client %d: event %d after %d", i, n, last)
					return
				}
				last, counts[i] = n, counts[i]+1
			}
		}()
	}
	log := e.store.Log()
	b.ResetTimer()
	for range b.N {
		e.fake.Push(openaitest.Reply{Text: deltaText(1000), Pace: pace})
		var acc struct{ TurnStartedAfter uint64 }
		e.call("POST", "/api/sessions/"+id+"/turns", map[string]string{"input": "stream"}, http.StatusAccepted, &acc)
		after := acc.TurnStartedAfter
	wait:
		for {
			evs, err := log.Read(ctx, id, after, 0)
			if err != nil {
				b.Fatal(err)
			}
			for _, ev := range evs {
				after = ev.Sequence
				if ev.Type == event.TurnCompleted {
					break wait
				}
			}
			if err := log.Wait(ctx, id, after); err != nil {
				b.Fatal(err)
			}
		}
		for e.srv.turnRunning(id) { // the next turn is not refused as turn_running
			time.Sleep(time.Millisecond)
		}
	}
	b.StopTimer()
	last, _ := log.LastSequence(ctx, id)
	deadline := time.Now().Add(30 * time.Second)
	for i := range clients { // every client gets every event
		for counts[i] < int(last) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
	cancel()
	e.hs.CloseClientConnections()
	wg.Wait()
	for i, n := range counts {
		if n != int(last) {
			b.Fatalf("client %d got %d of %d events", i, n, last)
		}
	}
}
