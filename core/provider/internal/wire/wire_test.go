package wire

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"pincer/core/provider"
)

func TestSplitSystem(t *testing.T) {
	tests := []struct {
		in, static, dynamic string
		found               bool
		joined              string
	}{
		{"all static", "all static", "", false, "all static"},
		{"a\nb\n" + DynamicMarker + "\nc\nd", "a\nb", "c\nd", true, "a\nb\nc\nd"},
		{"a\r\n" + DynamicMarker + "\r\nc", "a", "c", true, "a\nc"},
		{DynamicMarker + "\nc", "", "c", true, "c"},
		{"a\n" + DynamicMarker, "a", "", true, "a"},
		{"a\n " + DynamicMarker + "\nc", "a\n " + DynamicMarker + "\nc", "", false, "a\n " + DynamicMarker + "\nc"},
		{"a\n" + DynamicMarker + "\nb\n" + DynamicMarker + "\nc", "a", "b\n" + DynamicMarker + "\nc", true, "a\nb\n" + DynamicMarker + "\nc"},
	}
	for _, tc := range tests {
		s, d, f := SplitSystem(tc.in)
		if s != tc.static || d != tc.dynamic || f != tc.found || JoinSystem(tc.in) != tc.joined {
			t.Errorf("SplitSystem(%q) = %q, %q, %v (joined %q)", tc.in, s, d, f, JoinSystem(tc.in))
		}
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
		{"retry-after-ms wins", map[string]string{"retry-after-ms": "1500", "retry-after": "9"}, "", 1500 * time.Millisecond, true},
		{"retry-after seconds", map[string]string{"retry-after": "7"}, "", 7 * time.Second, true},
		{"retry-after fraction", map[string]string{"retry-after": "1.5"}, "", 1500 * time.Millisecond, true},
		{"retry-after date", map[string]string{"retry-after": "Tue, 26 Mar 2024 20:00:01 GMT"}, "", 2 * time.Second, true},
		{"retry-after past date", map[string]string{"retry-after": "Tue, 26 Mar 2024 19:00:00 GMT"}, "", 0, true},
		{"retry-after garbage falls through", map[string]string{"retry-after": "soon"}, "Please try again in 2s.", 2 * time.Second, true},
		{"message", nil, "Please try again in 1m30s. Visit", 90 * time.Second, true},
		{"message minutes", nil, "Please try again in 1m30s. Visit ...", 90 * time.Second, true},
		{"message ms", nil, "Rate limit reached. Please try again in 120ms.", 120 * time.Millisecond, true},
		{"message unparsable", nil, "Please try again in a moment.", 0, false},
	}
	for _, tc := range tests {
		h := http.Header{}
		for k, v := range tc.headers {
			h.Set(k, v)
		}
		if got, ok := RetryHint(h, tc.msg, now); got != tc.want || ok != tc.ok {
			t.Errorf("%s: %v, %v; want %v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestBackoffAndDo(t *testing.T) {
	r := Retry{Max: 2, Base: 100 * time.Millisecond}
	for n, full := range []time.Duration{100, 200, 400} {
		full *= time.Millisecond
		for range 20 {
			if d, ok := r.Backoff(n, 0, false); !ok || d < full/2 || d > full {
				t.Fatalf("Backoff(%d) = %v", n, d)
			}
		}
	}
	if _, ok := r.Backoff(0, 2*time.Minute, true); ok {
		t.Fatal("a 2 minute hint must not be waited for")
	}
	calls := 0
	err := Retry{Max: 2, Base: time.Millisecond}.Do(context.Background(), func() Attempt {
		calls++
		return Attempt{Err: errors.New("boom"), Retryable: true}
	})
	if err == nil || calls != 3 {
		t.Fatalf("err %v calls %d", err, calls)
	}
	calls = 0
	_ = Retry{Max: 5, Base: time.Millisecond}.Do(context.Background(), func() Attempt {
		calls++
		return Attempt{Err: errors.New("boom"), Retryable: true, Delivered: true}
	})
	if calls != 1 {
		t.Fatalf("delivered attempts must not be retried: %d calls", calls)
	}
	if r := NewRetry(0, 0); r.Max != 3 || r.Base != time.Second {
		t.Fatalf("defaults %+v", r)
	}
	if r := NewRetry(-1, 0); r.Max != 0 {
		t.Fatalf("negative disables: %+v", r)
	}
}

func TestParseErrorBody(t *testing.T) {
	tests := []struct {
		body string
		want ErrorInfo
		kind provider.Kind
	}{
		{`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			ErrorInfo{Message: "Overloaded", Type: "overloaded_error"}, provider.KindServer},
		{`{"type":"error","code":"rate_limit_exceeded","message":"Slow down."}`,
			ErrorInfo{Message: "Slow down.", Code: "rate_limit_exceeded"}, provider.KindRateLimit},
		{`[{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED","details":[{"reason":"RATE"},{"retryDelay":"3s"}]}}]`,
			ErrorInfo{Message: "quota", Type: "RESOURCE_EXHAUSTED", Code: "429", Status: 429, Reason: "RATE", RetryDelay: "3s"}, provider.KindRateLimit},
		{`{"error":{"code":"insufficient_quota","message":"pay"}}`,
			ErrorInfo{Message: "pay", Code: "insufficient_quota"}, provider.KindBilling},
		{`{"error":"plain"}`, ErrorInfo{Message: "plain"}, provider.KindStream},
		{`{"error":{"code":429,"message":"Provider returned error","metadata":{"raw":"upstream busy\n","provider_name":"X"}}}`,
			ErrorInfo{Message: "upstream busy\n", Code: "429", Status: 429}, provider.KindRateLimit},
		{`{"error":{"code":400,"message":"Provider returned error","metadata":{"raw":{"error":{"message":"bad schema"}}}}}`,
			ErrorInfo{Message: "bad schema", Code: "400", Status: 400}, provider.KindStream},
	}
	for _, tc := range tests {
		got, ok := ParseErrorBody([]byte(tc.body))
		if !ok || got != tc.want || InStreamKind(got) != tc.kind {
			t.Errorf("%s: %+v (kind %s), want %+v (kind %s)", tc.body, got, InStreamKind(got), tc.want, tc.kind)
		}
	}
	if _, ok := ParseErrorBody([]byte("<html>")); ok {
		t.Error("HTML parsed as JSON")
	}
}

// TestInStreamKind: in-stream errors of the Chat Completions dialects (OpenRouter,
// Groq, Anthropic bodies passed through by relays).
func TestInStreamKind(t *testing.T) {
	tests := []struct {
		body string
		kind provider.Kind
	}{
		{`{"error":{"message":"You exceeded your current quota","code":"insufficient_quota"}}`, provider.KindBilling},
		{`{"error":{"message":"no credits","code":402}}`, provider.KindBilling},
		{`{"error":{"message":"slow down","type":"rate_limit_error"}}`, provider.KindRateLimit},
		{`{"error":{"message":"bad key","type":"authentication_error"}}`, provider.KindAuth},
		{`{"error":{"message":"forbidden","status_code":403}}`, provider.KindAuth},
		{`{"error":{"message":"prompt is too long: 300000 tokens"}}`, provider.KindContextLength},
		{`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, provider.KindServer},
		{`{"error":{"message":"boom","status_code":502}}`, provider.KindServer},
		{`{"error":{"message":"Tool call validation failed","code":"tool_use_failed","status_code":400}}`, provider.KindStream},
	}
	for _, tc := range tests {
		info, ok := ParseErrorBody([]byte(tc.body))
		if got := InStreamKind(info); !ok || got != tc.kind {
			t.Errorf("%s: kind %s, want %s", tc.body, got, tc.kind)
		}
	}
}

func TestStreamError(t *testing.T) {
	e := StreamError("p", ErrorInfo{Message: "slow\ndown", Type: "rate_limit_error"})
	if e.Provider != "p" || e.Kind != provider.KindRateLimit || e.Message != "slow down" || e.Status != 0 {
		t.Errorf("StreamError = %+v", *e)
	}
	if e := StreamError("p", ErrorInfo{}); e.Message != "unknown error" || e.Kind != provider.KindStream {
		t.Errorf("empty StreamError = %+v", *e)
	}
}

func TestNewCaller(t *testing.T) {
	c := NewCaller("p", nil, 0, 90*time.Second)
	if c.Name != "p" || c.Client != http.DefaultClient || c.Stall != 90*time.Second {
		t.Errorf("defaults: %+v", c)
	}
	client := &http.Client{}
	if c := NewCaller("p", client, -1, 90*time.Second); c.Client != client || c.Stall != -1 {
		t.Errorf("explicit: %+v", c)
	}
}
