package openai

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"pincer/core/provider"
)

// scriptServer answers request n (from 0) with script[n] (the last one repeats).
func scriptServer(t *testing.T, script ...func(w http.ResponseWriter)) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		n := int(hits.Add(1)) - 1
		script[min(n, len(script)-1)](w)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// status answers with a status, headers (name, value pairs) and a JSON error body.
func status(code int, headers ...string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.WriteHeader(code)
		_, _ = w.Write([]byte(`{"error":{"message":"try later"}}`))
	}
}

// stream answers with a good event stream.
func stream(payload []byte) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(payload)
	}
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
		{"in-band rate limit before any event", stream(events(`{"error":{"message":"slow down","code":429}}`)), status(503)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, hits := scriptServer(t, tc.first, tc.second, stream(okStream))
			r := run(t, testProvider(srv.URL))
			if r.err != nil || r.text != "hello" || r.finish != "stop" || hits.Load() != 3 {
				t.Fatalf("err %v text %q finish %q requests %d", r.err, r.text, r.finish, hits.Load())
			}
		})
	}
}

func TestRetryGivesUp(t *testing.T) {
	srv, hits := scriptServer(t, status(500))
	r := run(t, testProvider(srv.URL, func(c *Config) { c.MaxRetries = 2 }))
	perr := wantErr(t, r.err, provider.KindServer, "try later")
	if perr.Status != 500 || hits.Load() != 3 {
		t.Fatalf("status %d, requests %d; want 500 and 3", perr.Status, hits.Load())
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
		{"in-band error after delivery", stream(events(textChunk, `{"error":{"message":"overloaded","type":"server_error"}}`)), provider.KindServer},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, hits := scriptServer(t, tc.resp, stream(okStream))
			r := run(t, testProvider(srv.URL))
			wantErr(t, r.err, tc.kind, "")
			if hits.Load() != 1 {
				t.Fatalf("requests = %d, want 1", hits.Load())
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
	perr := wantErr(t, r.err, provider.KindNetwork, "connection refused")
	if perr.Status != 0 || tr.n.Load() != 3 {
		t.Fatalf("status %d, round trips %d", perr.Status, tr.n.Load())
	}
}

func TestRetryBackoffRespectsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The server asks for a 30s wait; the caller gives up once the first answer is in.
	srv, hits := scriptServer(t, func(w http.ResponseWriter) {
		status(429, "retry-after", "30")(w)
		time.AfterFunc(20*time.Millisecond, cancel)
	})
	var errs []error
	for _, err := range testProvider(srv.URL).Stream(ctx, simpleRequest()) {
		errs = append(errs, err)
	}
	if len(errs) != 1 || !errors.Is(errs[0], context.Canceled) || hits.Load() != 1 {
		t.Fatalf("errors %v, requests %d; want one context.Canceled after 1 request", errs, hits.Load())
	}
}

func TestBackoff(t *testing.T) {
	p := New(Config{RetryBaseDelay: 100 * time.Millisecond})
	for n, full := range []time.Duration{100, 200, 400, 800} {
		full *= time.Millisecond
		for range 50 {
			d, ok := p.backoff(n, 0, false)
			if !ok || d < full/2 || d > full {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", n, d, full/2, full)
			}
		}
	}
	if d, _ := p.backoff(40, 0, false); d > maxBackoff || d < maxBackoff/2 {
		t.Fatalf("backoff(40) = %v, want capped at %v", d, maxBackoff)
	}
	if d, ok := p.backoff(0, 7*time.Second, true); !ok || d != 7*time.Second {
		t.Fatalf("hinted backoff = %v, %v", d, ok)
	}
	if _, ok := p.backoff(0, 2*time.Minute, true); ok {
		t.Fatal("a 2 minute hint must not be waited for")
	}
}

func TestRetryHint(t *testing.T) {
	now := time.Date(2024, 3, 26, 19, 59, 59, 0, time.UTC)
	tests := []struct {
		name    string
		headers map[string]string
		msg     string
		want    time.Duration
		ok      bool
	}{
		{"none", nil, "slow down", 0, false},
		{"retry-after-ms", map[string]string{"retry-after-ms": "1500", "retry-after": "9"}, "", 1500 * time.Millisecond, true},
		{"retry-after seconds", map[string]string{"retry-after": "7"}, "", 7 * time.Second, true},
		{"retry-after fraction", map[string]string{"retry-after": "1.5"}, "", 1500 * time.Millisecond, true},
		{"retry-after date", map[string]string{"retry-after": "Tue, 26 Mar 2024 20:00:01 GMT"}, "", 2 * time.Second, true},
		{"retry-after past date", map[string]string{"retry-after": "Tue, 26 Mar 2024 19:00:00 GMT"}, "", 0, true},
		{"retry-after garbage falls through", map[string]string{"retry-after": "soon"}, "Please try again in 2s.", 2 * time.Second, true},
		{"message minutes", nil, "Please try again in 1m30s. Visit ...", 90 * time.Second, true},
		{"message ms", nil, "Rate limit reached. Please try again in 120ms.", 120 * time.Millisecond, true},
		{"message unparsable", nil, "Please try again in a moment.", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tc.headers {
				h.Set(k, v)
			}
			got, ok := retryHint(h, tc.msg, now)
			if got != tc.want || ok != tc.ok {
				t.Fatalf("retryHint = %v, %v; want %v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}
