package wire

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"pincer/core/provider"
	"pincer/core/provider/sse"
)

func TestNewConnDefaultsAndRequest(t *testing.T) {
	c := NewConn(provider.HTTPConfig{}, "dflt", "https://api.example/v1")
	if c.Name != "dflt" || c.BaseURL != "https://api.example/v1" || c.Caller.Stall != provider.DefaultStallTimeout ||
		c.Caller.Client != http.DefaultClient || c.Retry.Max != 3 {
		t.Fatalf("defaults %+v", c)
	}
	c = NewConn(provider.HTTPConfig{Name: "n", BaseURL: "http://h/x/", APIKey: "k", StallTimeout: -1, MaxRetries: -1,
		Headers: map[string]string{"Accept": "text/plain", "X-Extra": "1"}}, "dflt", "unused")
	if c.BaseURL != "http://h/x" || c.Caller.Stall != -1 || c.Retry.Max != 0 {
		t.Fatalf("configured %+v", c)
	}
	req, err := c.Request(http.MethodPost, c.BaseURL+"/p", []byte(`{}`), "text/event-stream")(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	h := req.Header
	if h.Get("Authorization") != "Bearer k" || h.Get("Content-Type") != "application/json" || h.Get("X-Extra") != "1" ||
		h.Get("Accept") != "text/plain" || req.URL.String() != "http://h/x/p" {
		t.Errorf("request %s %v", req.URL, h)
	}
	c.KeyHeader, c.KeyPrefix, c.APIKey = "x-goog-api-key", "", "g"
	req, _ = c.Request(http.MethodGet, c.BaseURL+"/models", nil, "application/json")(context.Background())
	if req.Header.Get("X-Goog-Api-Key") != "g" || req.Header.Get("Authorization") != "" || req.Header.Get("Content-Type") != "" || req.Body != nil {
		t.Errorf("GET %v", req.Header)
	}
}

// lineDecoder yields each event's data as text; "done" completes, "bad" fails, and
// End fails unless done was seen.
type lineDecoder struct {
	out  []provider.Event
	done bool
}

func (d *lineDecoder) Feed(ev sse.Event) (bool, *provider.Error) {
	switch ev.Data {
	case "done":
		d.done = true
		return true, nil
	case "bad":
		return false, &provider.Error{Provider: "t", Kind: provider.KindStream, Message: "bad event"}
	}
	d.out = append(d.out, provider.Event{Type: provider.EventTextDelta, Text: ev.Data})
	return false, nil
}

func (d *lineDecoder) End() *provider.Error {
	if !d.done {
		return &provider.Error{Provider: "t", Kind: provider.KindStream, Message: "cut off"}
	}
	d.out = append(d.out, provider.Event{Type: provider.EventDone})
	return nil
}

func (d *lineDecoder) Take() []provider.Event {
	out := d.out
	d.out = nil
	return out
}

// pump serves body and pumps it through a lineDecoder, the consumer stopping after
// stopAfter events (0: never).
func pump(t *testing.T, body string, stopAfter int) (texts []string, a Attempt) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(body))
	}))
	defer srv.Close()
	c := NewCaller("t", nil, 0, provider.DefaultStallTimeout)
	build := func(ctx context.Context) (*http.Request, error) {
		return http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	}
	a = c.SSE(context.Background(), build, &lineDecoder{}, func(ev provider.Event, err error) bool {
		texts = append(texts, ev.Text)
		return stopAfter == 0 || len(texts) < stopAfter
	})
	return texts, a
}

func TestPump(t *testing.T) {
	// done stops the reading: the bad event after it is never fed.
	texts, a := pump(t, "data: a\n\ndata: b\n\ndata: done\n\ndata: bad\n\n", 0)
	if a.Err != nil || strings.Join(texts, ",") != "a,b," {
		t.Errorf("done: %q %+v", texts, a)
	}
	// A failing event after a delivered one: the attempt says delivered (no retry).
	texts, a = pump(t, "data: a\n\ndata: bad\n\n", 0)
	var perr *provider.Error
	if !errors.As(a.Err, &perr) || perr.Message != "bad event" || !a.Delivered || len(texts) != 1 {
		t.Errorf("bad: %q %+v", texts, a)
	}
	// End's error at the end of the body; nothing delivered, so it may be retried.
	texts, a = pump(t, ": comment\n\n", 0)
	if !errors.As(a.Err, &perr) || perr.Message != "cut off" || a.Delivered || len(texts) != 0 {
		t.Errorf("cut off: %q %+v", texts, a)
	}
	// The consumer stops: a zero attempt, nothing more yielded.
	texts, a = pump(t, "data: a\n\ndata: b\n\ndata: c\n\n", 1)
	if a.Err != nil || len(texts) != 1 {
		t.Errorf("stop: %q %+v", texts, a)
	}
}
