package openai

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"pincer/core/provider"
	"pincer/core/provider/internal/streamcase"
	"pincer/core/provider/internal/streamtest"
	"pincer/core/provider/internal/wire"
)

// httpErrorCases are the package's HTTP error fixtures and the captured HTTP error
// responses 31-40, and how each must be classified. The Anthropic bodies (31-33) are
// included on purpose: relays pass them through unchanged, and the body shapes must
// not confuse the classifier.
var httpErrorCases = []struct {
	file   string
	status int
	kind   provider.Kind
	msg    string
}{
	{"testdata/http429-rate-limit.txt", 429, provider.KindRateLimit, "Rate limit reached for requests"},
	{"testdata/http401-invalid-key.txt", 401, provider.KindAuth, "Incorrect API key provided."},
	{"testdata/http400-context-length.txt", 400, provider.KindContextLength,
		"This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens."},
	{"testdata/http503-plain-text.txt", 503, provider.KindServer, "upstream connect error"},
	{"31-anthropic-http400-prompt-too-long.txt", 400, provider.KindContextLength,
		"prompt is too long: 205351 tokens > 200000 maximum"},
	{"32-anthropic-http401-invalid-key.txt", 401, provider.KindAuth, "invalid x-api-key"},
	{"33-anthropic-http429-rate-limit.txt", 429, provider.KindRateLimit,
		"This request would exceed the rate limit for your organization (---) of 20,000 input tokens per minute. For details, refer to: https://docs.anthropic.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase."},
	{"34-openai-http401-invalid-api-key.txt", 401, provider.KindAuth,
		"Incorrect API key provided: sk-<REDACTED>. You can find your API key at https://platform.openai.com/account/api-keys."},
	{"35-openai-http400-context-length.txt", 400, provider.KindContextLength,
		"This model's maximum context length is 4097 tokens. However, your messages resulted in 4294 tokens. Please reduce the length of the messages."},
	{"36-openai-http429-tpm.txt", 429, provider.KindRateLimit,
		"Rate limit reached for gpt-4 in organization org-********** on tokens per min (TPM): Limit 10000, Used 9348, Requested 5086. Please try again in 26.604s. Visit https://platform.openai.com/account/rate-limits to learn more."},
	{"38-deepseek-http401-auth-fails.txt", 401, provider.KindAuth, "Authentication Fails (no such user)"},
	{"39-deepseek-http400-octet-stream.txt", 400, provider.KindBadRequest, "No tool output found for tool call call-a."},
	{"40-openrouter-http429-upstream.txt", 429, provider.KindRateLimit,
		"google/gemini-2.0-flash-exp:free is temporarily rate-limited upstream. Please retry shortly, or add your own key to accumulate your rate limits: https://openrouter.ai/settings/integrations"},
}

func TestHTTPErrorCases(t *testing.T) {
	for _, tc := range httpErrorCases {
		t.Run(strings.TrimSuffix(tc.file, ".txt"), func(t *testing.T) {
			resp := streamcase.ParseResponse(t, streamcase.Open(t, tc.file).Payload)
			if resp.Status != tc.status {
				t.Fatalf("capture status %d, want %d", resp.Status, tc.status)
			}
			s := streamtest.NewScript(t, resp.Serve)
			got := run(t, testProvider(s.URL, func(c *Config) { c.MaxRetries = -1 }))
			var perr *provider.Error
			if !errors.As(got.Err, &perr) {
				t.Fatalf("err = %v, want *provider.Error", got.Err)
			}
			if perr.Kind != tc.kind || perr.Status != tc.status || perr.Message != tc.msg || perr.Provider != testName {
				t.Errorf("got %+v\nwant kind %s status %d message %q", *perr, tc.kind, tc.status, tc.msg)
			}
			if line := perr.Error(); strings.ContainsAny(line, "\r\n") || !strings.HasPrefix(line, testName+": ") {
				t.Errorf("Error() = %q: want one line naming the provider", line)
			}
			if len(got.Events) != 0 || s.Hits() != 1 {
				t.Errorf("events %d, requests %d; want 0 and 1", len(got.Events), s.Hits())
			}
		})
	}
}

// TestHTTPErrorCasesRetry checks that the retryable captures are retried (and the
// others are not), with the final error the server's.
func TestHTTPErrorCasesRetry(t *testing.T) {
	for _, tc := range httpErrorCases {
		if tc.file == "36-openai-http429-tpm.txt" {
			continue // its "try again in 26.604s" would be honoured; see TestRetryHint
		}
		t.Run(strings.TrimSuffix(tc.file, ".txt"), func(t *testing.T) {
			resp := streamcase.ParseResponse(t, streamcase.Open(t, tc.file).Payload)
			s := streamtest.NewScript(t, resp.Serve)
			got := run(t, testProvider(s.URL, func(c *Config) { c.MaxRetries = 2 }))
			want := 1
			if tc.kind == provider.KindRateLimit || tc.kind == provider.KindServer {
				want = 3
			}
			if s.Hits() != want {
				t.Errorf("requests = %d, want %d", s.Hits(), want)
			}
			var perr *provider.Error
			if !errors.As(got.Err, &perr) || perr.Kind != tc.kind {
				t.Errorf("err = %v, want kind %s", got.Err, tc.kind)
			}
		})
	}
}

func TestRetryHintFromFixture(t *testing.T) {
	resp := streamcase.ParseResponse(t, streamcase.Fixture(t, "http429-rate-limit.txt").Payload)
	d, ok := wire.RetryHint(resp.Header, "", time.Now())
	if !ok || d != 20*time.Millisecond {
		t.Fatalf("hint = %v, %v; want 20ms (retry-after-ms)", d, ok)
	}
}

func TestRetryHintFromCapture36(t *testing.T) {
	resp := streamcase.ParseResponse(t, streamcase.Load(t, "36-openai-http429-tpm.txt").Payload)
	info, _ := wire.ParseErrorBody(resp.Body)
	d, ok := wire.RetryHint(resp.Header, info.Message, time.Now())
	if !ok || d != 26604*time.Millisecond {
		t.Fatalf("hint = %v, %v; want 26.604s", d, ok)
	}
}

func TestHTTPErrorBodies(t *testing.T) {
	long := "<html><body>" + strings.Repeat("Bad gateway. ", 40) + "</body></html>"
	tests := []struct {
		name   string
		status int
		body   string
		kind   provider.Kind
		msg    string
	}{
		{"html 502 falls back to 200 characters", 502, long, provider.KindServer, string([]rune(long)[:200]) + "…"},
		{"multi-line text is one line", 503, "upstream\nconnect error\r\n", provider.KindServer, "upstream connect error"},
		{"empty body uses the status text", 500, "", provider.KindServer, "Internal Server Error"},
		{"error as a string (Ollama)", 404, `{"error":"model \"x\" not found, try pulling it first"}`, provider.KindNotFound, `model "x" not found, try pulling it first`},
		{"vLLM top-level message", 400, `{"object":"error","message":"This model's maximum context length is 8192 tokens.","type":"BadRequestError","code":400}`, provider.KindContextLength, "This model's maximum context length is 8192 tokens."},
		{"llama.cpp context size", 400, `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}`, provider.KindContextLength, "the request exceeds the available context size, try increasing it"},
		{"Google compat array", 400, `[{"error":{"code":400,"message":"API key not valid.","status":"INVALID_ARGUMENT"}}]`, provider.KindBadRequest, "API key not valid."},
		{"quota on 429 is billing", 429, `{"error":{"message":"You exceeded your current quota.","type":"insufficient_quota","code":"insufficient_quota"}}`, provider.KindBilling, "You exceeded your current quota."},
		{"402", 402, `{"error":{"message":"Insufficient credits","code":402}}`, provider.KindBilling, "Insufficient credits"},
		{"403", 403, `{"error":{"message":"Country not supported"}}`, provider.KindAuth, "Country not supported"},
		{"422 other 4xx", 422, `{"detail":"Extra inputs are not permitted"}`, provider.KindBadRequest, "Extra inputs are not permitted"},
		{"OpenRouter raw holding JSON", 400, `{"error":{"code":400,"message":"Provider returned error","metadata":{"raw":"{\"error\":{\"message\":\"invalid tool schema\"}}","provider_name":"X"}}}`, provider.KindBadRequest, "invalid tool schema"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			got := run(t, testProvider(srv.URL, func(c *Config) { c.MaxRetries = -1 }))
			var perr *provider.Error
			if !errors.As(got.Err, &perr) {
				t.Fatalf("err = %v", got.Err)
			}
			if perr.Kind != tc.kind || perr.Status != tc.status || perr.Message != tc.msg {
				t.Errorf("got %+v\nwant kind %s status %d message %q", *perr, tc.kind, tc.status, tc.msg)
			}
		})
	}
}

// TestErrorRedactsAPIKey: a provider that echoes the key it got must not put it in an
// error (errors reach events and the terminal).
func TestErrorRedactsAPIKey(t *testing.T) {
	const key = "sk-secret-1234567890"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error":{"message":"Incorrect API key provided: ` + key + `."}}`))
	}))
	defer srv.Close()
	p := New(Config{HTTPConfig: provider.HTTPConfig{BaseURL: srv.URL, APIKey: key, MaxRetries: -1}})
	var got error
	for _, err := range p.Stream(t.Context(), provider.Request{Model: "m"}) {
		if err != nil {
			got = err
		}
	}
	if got == nil || strings.Contains(got.Error(), key) || !strings.Contains(got.Error(), "[redacted]") {
		t.Fatalf("error %v: the key must be replaced by [redacted]", got)
	}
}
