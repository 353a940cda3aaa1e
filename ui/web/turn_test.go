package web

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// TestTurnStreamsOverSSE: a turn submitted over HTTP streams its events
// over SSE in order (ids the sequences 1, 2, ... without a gap, data the
// event's flat JSON); reconnecting with Last-Event-ID (or ?after) gives
// exactly the remaining sequence.
func TestTurnStreamsOverSSE(t *testing.T) {
	e := newTestEnv(t, openaitest.Reply{Text: "hello from the fake model, streamed in several pieces"})
	id := e.newSession()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st := e.stream(ctx, id, "", nil)
	var accepted struct {
		SessionID        string `json:"sessionId"`
		TurnStartedAfter uint64 `json:"turnStartedAfter"`
	}
	e.call("POST", "/api/sessions/"+id+"/turns", map[string]string{"input": "say hello"}, http.StatusAccepted, &accepted)
	if accepted.SessionID != id {
		t.Fatalf("accepted %+v", accepted)
	}
	evs := st.until(t, "turn.completed")
	if st.Retry != "1000" {
		t.Errorf("retry: %q, want 1000", st.Retry)
	}
	var text strings.Builder
	for i, ev := range evs {
		if ev.ID != strconv.Itoa(i+1) {
			t.Fatalf("event %d has id %s: %v", i, ev.ID, evs)
		}
		var flat map[string]any
		if err := json.Unmarshal([]byte(ev.Data), &flat); err != nil {
			t.Fatalf("data %q: %v", ev.Data, err)
		}
		if flat["type"] != ev.Type || flat["sequence"] != float64(i+1) || flat["sessionId"] != id {
			t.Fatalf("data %s does not match id %s event %s", ev.Data, ev.ID, ev.Type)
		}
		if ev.Type == "message.delta" && flat["kind"] == "text" {
			text.WriteString(flat["delta"].(string))
		}
	}
	if uint64(len(evs)) <= accepted.TurnStartedAfter || evs[accepted.TurnStartedAfter].Type != "turn.started" {
		t.Fatalf("the event after turnStartedAfter %d is not turn.started: %v", accepted.TurnStartedAfter, evs)
	}
	if text.String() != "hello from the fake model, streamed in several pieces" {
		t.Fatalf("streamed text %q", text.String())
	}
	cancel()

	for _, k := range []int{0, 1, len(evs) / 2, len(evs) - 1} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		hdr := map[string]string{"Last-Event-ID": strconv.Itoa(k)}
		query := "after=999999" // Last-Event-ID wins over ?after
		if k == 1 {
			hdr, query = nil, "after=1"
		}
		re := e.stream(ctx, id, query, hdr)
		got := re.until(t, "turn.completed")
		if len(got) != len(evs)-k {
			t.Fatalf("resumed after %d: %d events, want %d", k, len(got), len(evs)-k)
		}
		for i, ev := range got {
			if ev != evs[k+i] {
				t.Fatalf("resumed after %d: event %d = %+v, want %+v", k, i, ev, evs[k+i])
			}
		}
		cancel()
	}
}

// TestStreamKeepAlive: an idle stream gets keep-alive comments (the
// interval is the Options field; 200 ms in these tests).
func TestStreamKeepAlive(t *testing.T) {
	e := newTestEnv(t)
	id := e.newSession()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st := e.stream(ctx, id, "", nil)
	st.until(t, "session.created")
	go func() { time.Sleep(time.Second); cancel() }()
	_, _ = st.next()
	if st.Comments < 2 {
		t.Fatalf("%d keep-alive comments in 1 s at a 200 ms interval", st.Comments)
	}
}
