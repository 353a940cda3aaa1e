package openai

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pincer/core/provider"
	"pincer/core/provider/internal/streamtest"
	"pincer/core/provider/internal/wire"
)

// status answers with a status, headers (name, value pairs) and a JSON error body.
func status(code int, headers ...string) func(http.ResponseWriter) {
	return streamtest.Status(code, `{"error":{"message":"try later"}}`, headers...)
}

var okStream = events(textChunk, stopChunk, "[DONE]")

func TestRetryThenSuccess(t *testing.T) {
	tests := []struct {
		name   string
		first  func(http.ResponseWriter)
		second func(http.ResponseWriter)
	}{
		{"503", status(503), status(502)},
		{"429 with retry-after-ms", status(429, "retry-after-ms", "1"), status(429, "retry-after", "0")},
		{"529 overloaded", status(529), status(500)},
		{"in-band rate limit before any event", streamtest.Stream(events(`{"error":{"message":"slow down","code":429}}`)), status(503)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := streamtest.NewScript(t, tc.first, tc.second, streamtest.Stream(okStream))
			r := run(t, testProvider(s.URL))
			if r.Err != nil || r.Text != "hello" || r.Finish != "stop" || s.Hits() != 3 {
				t.Fatalf("err %v text %q finish %q requests %d", r.Err, r.Text, r.Finish, s.Hits())
			}
		})
	}
}

func TestRetryGivesUp(t *testing.T) {
	s := streamtest.NewScript(t, status(500))
	r := run(t, testProvider(s.URL, func(c *Config) { c.MaxRetries = 2 }))
	perr := streamtest.WantErr(t, r.Err, testName, provider.KindServer, "try later")
	if perr.Status != 500 || s.Hits() != 3 {
		t.Fatalf("status %d, requests %d; want 500 and 3", perr.Status, s.Hits())
	}
}

func TestNoRetry(t *testing.T) {
	tests := []struct {
		name string
		resp func(http.ResponseWriter)
		kind provider.Kind
	}{
		{"400", status(400), provider.KindBadRequest},
		{"401", status(401), provider.KindAuth},
		{"x-should-retry false", status(503, "x-should-retry", "false"), provider.KindServer},
		{"retry-after beyond the limit", status(429, "retry-after", "120"), provider.KindRateLimit},
		{"in-band error after delivery", streamtest.Stream(events(textChunk, `{"error":{"message":"overloaded","type":"server_error"}}`)), provider.KindServer},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := streamtest.NewScript(t, tc.resp, streamtest.Stream(okStream))
			r := run(t, testProvider(s.URL))
			streamtest.WantErr(t, r.Err, testName, tc.kind, "")
			if s.Hits() != 1 {
				t.Fatalf("requests = %d, want 1", s.Hits())
			}
		})
	}
}

// countingTransport counts round trips and fails them all.
type countingTransport struct{ n atomic.Int32 }

func (c *countingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	c.n.Add(1)
	return nil, errors.New("dial tcp 127.0.0.1:1: connect: connection refused")
}

func TestRetryConnectionErrors(t *testing.T) {
	tr := &countingTransport{}
	p := testProvider("http://127.0.0.1:1/v1", func(c *Config) {
		c.HTTPClient = &http.Client{Transport: tr}
		c.MaxRetries = 2
	})
	r := run(t, p)
	perr := streamtest.WantErr(t, r.Err, testName, provider.KindNetwork, "connection refused")
	if perr.Status != 0 || tr.n.Load() != 3 {
		t.Fatalf("status %d, round trips %d", perr.Status, tr.n.Load())
	}
}

func TestRetryBackoffRespectsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The server asks for a 30s wait; the caller gives up once the first answer is in.
	s := streamtest.NewScript(t, func(w http.ResponseWriter) {
		status(429, "retry-after", "30")(w)
		time.AfterFunc(20*time.Millisecond, cancel)
	})
	var errs []error
	var retries []string
	for ev, err := range testProvider(s.URL).Stream(ctx, simpleRequest()) {
		if ev.Type == provider.EventRetry {
			retries = append(retries, ev.Text)
			continue
		}
		errs = append(errs, err)
	}
	if len(errs) != 1 || !errors.Is(errs[0], context.Canceled) || s.Hits() != 1 {
		t.Fatalf("errors %v, requests %d; want one context.Canceled after 1 request", errs, s.Hits())
	}
	// The wait was announced before it began (new user r24: retries were silent).
	if len(retries) != 1 || !strings.Contains(retries[0], "429") || !strings.Contains(retries[0], "retrying in 30s (attempt 2 of 4)") {
		t.Errorf("retry events %q, want one saying the 429, the 30s wait and the attempt", retries)
	}
}

func TestBackoff(t *testing.T) {
	p := New(Config{HTTPConfig: provider.HTTPConfig{RetryBaseDelay: 100 * time.Millisecond}})
	for n, full := range []time.Duration{100, 200, 400, 800} {
		full *= time.Millisecond
		for range 50 {
			d, ok := p.conn.Retry.Backoff(n, 0, false)
			if !ok || d < full/2 || d > full {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", n, d, full/2, full)
			}
		}
	}
	if d, _ := p.conn.Retry.Backoff(40, 0, false); d > wire.MaxBackoff || d < wire.MaxBackoff/2 {
		t.Fatalf("backoff(40) = %v, want capped at %v", d, wire.MaxBackoff)
	}
	if d, ok := p.conn.Retry.Backoff(0, 7*time.Second, true); !ok || d != 7*time.Second {
		t.Fatalf("hinted backoff = %v, %v", d, ok)
	}
	if _, ok := p.conn.Retry.Backoff(0, 2*time.Minute, true); ok {
		t.Fatal("a 2 minute hint must not be waited for")
	}
}
