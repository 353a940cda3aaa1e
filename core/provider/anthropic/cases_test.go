package anthropic

import (
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/streamcase"
	"pincer/core/provider/internal/streamtest"
)

// streamCase is the expected parse of one capture, copied from its header.
type streamCase struct {
	file      string
	text      string
	reasoning string
	signature string
	calls     []streamtest.Call
	finish    string
	usage     *message.Usage // nil: no usage event
	errKind   provider.Kind  // set for streams that end in an error (no EventDone)
	errMsg    string
}

var streamCases = []streamCase{
	// The package's own fixtures (testdata/), run on every clone.
	{file: "testdata/messages-text-ping.txt", text: "Hello — wörld", finish: "end_turn",
		usage: &message.Usage{InputTokens: 25, OutputTokens: 7}},
	{file: "testdata/messages-tools-cache-usage.txt", text: "Reading both.", finish: "tool_use",
		calls: []streamtest.Call{{ID: "toolu_pincer_a", Name: "Read", Args: `{"file_path": "a.go"}`}, {ID: "toolu_pincer_b", Name: "LS", Args: `{}`}},
		usage: &message.Usage{InputTokens: 5, OutputTokens: 80, CacheReadTokens: 2000, CacheWriteTokens: 1000}},
	{file: "testdata/messages-thinking-signature.txt", reasoning: "Two plus two is four.",
		signature: "c2lnbmF0dXJlLWZvci1waW5jZXItdGVzdHM=", text: "4", finish: "end_turn",
		usage: &message.Usage{InputTokens: 40, OutputTokens: 20}},
	{file: "testdata/messages-error-event.txt", errKind: provider.KindServer, errMsg: "Overloaded"},
	{file: "testdata/messages-cut-off.txt", text: "cut", errKind: provider.KindStream,
		errMsg: "stream ended before completion (no message_delta, no message_stop)"},
	// The captures of shared/cases/streams (the conformance suite).
	{file: "25-anthropic-text-ping-padding.txt", text: "Hello", finish: "end_turn",
		usage: &message.Usage{InputTokens: 156, OutputTokens: 4}},
	{file: "26-anthropic-tool-input-json-delta.txt", finish: "tool_use",
		calls: []streamtest.Call{{ID: "toolu_019uY95x1kBWzGRvM8Vv9Sfk", Name: "bash",
			Args: `{"description": "Create test.txt with content", "command": "echo 'hello bash' > /tmp/crush-test/TestCoderAgent/anthropic-sonnet/bash_tool/test.txt"}`}},
		usage: &message.Usage{InputTokens: 3, OutputTokens: 105, CacheWriteTokens: 8288}},
	{file: "27-anthropic-parallel-tools-cache-usage.txt", finish: "tool_use",
		calls: []streamtest.Call{
			{ID: "toolu_01QYv5XJsq3fV1NnHGH5qE1j", Name: "glob", Args: `{"pattern": "**/*.go"}`},
			{ID: "toolu_01RZ13pSVWhjBKJJQfzAcEmP", Name: "ls", Args: `{"path": "/tmp/crush-test/TestCoderAgent/anthropic-sonnet/parallel_tool_calls"}`},
		},
		// input_tokens excludes the cache: the prompt was 3 + 4564 + 3733 = 8300 tokens.
		usage: &message.Usage{InputTokens: 3, OutputTokens: 110, CacheReadTokens: 3733, CacheWriteTokens: 4564}},
	{file: "28-anthropic-thinking-signature.txt", finish: "end_turn",
		reasoning: "The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185",
		signature: "EvQBCkYICxgCKkAxhD4NUKFzudtZ6NzbZdEiBACIScTzqjPViM596iWLZIk4EFKYYBj3B6Ptl3b0dcQv/VeJBNbejNWIWRBn+KPNEgz6HWtKx7p+QRgKsEoaDGjsiqfht7gTRFYHiyIwD1VSmNqHxv3wy8KEMP+LYb/TC4UH3H97tuoaADARFFcA0phdfxnzKQxFnc9lwY+dKlzUsaKSUAFeu1bDL5ikZJ1vL0Fkz6JjoFke0L/wOJRIUDUlDUOFJ1tZ3ea7g6LGE/5hwuvWgLwewdcm64d+43l7F57XrOmqNd6flI2K/oPr/4yzNgvi/EhT6Ca17BgB",
		text:      "925 ÷ 5 = 185",
		usage:     &message.Usage{InputTokens: 69, OutputTokens: 53}},
	{file: "29-anthropic-midstream-error-doc.txt",
		errKind: provider.KindServer, errMsg: "Overloaded"},
}

// TestStreamCases replays every Anthropic stream fixture and capture byte for byte from an
// httptest server and checks the parse against the header's "expected parse".
// Retries are off, so case 29's overloaded error is seen as the first attempt's.
func TestStreamCases(t *testing.T) {
	for _, tc := range streamCases {
		t.Run(strings.TrimSuffix(tc.file, ".txt"), func(t *testing.T) {
			c := streamcase.Open(t, tc.file)
			if !strings.Contains(c.Header, "expected parse:") {
				t.Fatalf("header of %s has no expected parse", tc.file)
			}
			srv := streamtest.SSEServer(t, c.Payload)
			got := run(t, testProvider(srv.URL, func(c *Config) { c.MaxRetries = -1 }))
			checkCase(t, tc, got)
		})
	}
}

// checkCase compares one stream's result with its expectation.
func checkCase(t *testing.T, tc streamCase, got streamtest.Result) {
	t.Helper()
	if got.Text != tc.text || got.Reasoning != tc.reasoning {
		t.Errorf("text %q reasoning %q, want %q and %q", got.Text, got.Reasoning, tc.text, tc.reasoning)
	}
	var wantSigs []string
	if tc.signature != "" {
		wantSigs = []string{tc.signature}
	}
	if !reflect.DeepEqual(got.Signatures, wantSigs) {
		t.Errorf("signatures = %q, want %q", got.Signatures, wantSigs)
	}
	streamtest.CheckCalls(t, got.Calls, tc.calls)
	switch {
	case tc.usage == nil && got.UsageEvents != 0:
		t.Errorf("got %d usage events, want none", got.UsageEvents)
	case tc.usage != nil && (got.UsageEvents != 1 || got.Usage != *tc.usage):
		t.Errorf("usage = %+v in %d events, want %+v in 1", got.Usage, got.UsageEvents, *tc.usage)
	}
	if got.AfterDone != 0 {
		t.Errorf("%d events after EventDone", got.AfterDone)
	}
	if tc.errKind == "" {
		if got.Err != nil {
			t.Fatalf("unexpected error: %v", got.Err)
		}
		if got.Done != 1 || got.Finish != tc.finish || got.Events[len(got.Events)-1].Type != provider.EventDone {
			t.Errorf("done = %d with finish %q (last event last?), want 1 with %q", got.Done, got.Finish, tc.finish)
		}
		return
	}
	if got.Done != 0 {
		t.Errorf("EventDone on a failed stream")
	}
	perr := streamtest.WantErr(t, got.Err, testName, tc.errKind, tc.errMsg)
	if perr.Message != tc.errMsg || perr.Status != 0 {
		t.Errorf("error = %+v, want message %q and no status", *perr, tc.errMsg)
	}
}

// TestMidStreamErrorAfterText follows case 29's advice: its error event after the
// first events of a text stream (the fixtures in its shape). The text already
// reached the consumer, so the overloaded error is not retried and no EventDone
// follows.
func TestMidStreamErrorAfterText(t *testing.T) {
	head := string(streamcase.Fixture(t, "messages-text-ping.txt").Payload)
	head = head[:strings.Index(head, "event: content_block_stop")]
	tail := string(streamcase.Fixture(t, "messages-error-event.txt").Payload)
	s := streamtest.NewScript(t, streamtest.Stream(head+tail), streamtest.Stream(okStream))
	got := run(t, testProvider(s.URL))
	if got.Text != "Hello — wörld" || got.Done != 0 || s.Hits() != 1 {
		t.Fatalf("text %q done %d requests %d; want Hello, 0, 1", got.Text, got.Done, s.Hits())
	}
	streamtest.WantErr(t, got.Err, testName, provider.KindServer, "Overloaded")
}

// TestOverloadedStreamRetried: an overloaded error event alone (case 29's shape,
// nothing delivered) is retried, like an HTTP 529.
func TestOverloadedStreamRetried(t *testing.T) {
	errStream := string(streamcase.Fixture(t, "messages-error-event.txt").Payload)
	s := streamtest.NewScript(t, streamtest.Stream(errStream), streamtest.Stream(okStream))
	got := run(t, testProvider(s.URL))
	if got.Err != nil || got.Text != "hello" || s.Hits() != 2 {
		t.Fatalf("err %v text %q requests %d", got.Err, got.Text, s.Hits())
	}
}

// httpErrorCases are the Anthropic HTTP error fixtures and captures and their
// classification.
var httpErrorCases = []struct {
	file   string
	status int
	kind   provider.Kind
	msg    string
}{
	{"testdata/http400-prompt-too-long.txt", 400, provider.KindContextLength, "prompt is too long: 210000 tokens > 200000 maximum"},
	{"testdata/http401-invalid-key.txt", 401, provider.KindAuth, "invalid x-api-key"},
	{"testdata/http429-retry-after.txt", 429, provider.KindRateLimit, "Number of request tokens has exceeded your per-minute rate limit"},
	{"testdata/http529-overloaded.txt", 529, provider.KindServer, "Overloaded"},
	{"31-anthropic-http400-prompt-too-long.txt", 400, provider.KindContextLength,
		"prompt is too long: 205351 tokens > 200000 maximum"},
	{"32-anthropic-http401-invalid-key.txt", 401, provider.KindAuth, "invalid x-api-key"},
	{"33-anthropic-http429-rate-limit.txt", 429, provider.KindRateLimit,
		"This request would exceed the rate limit for your organization (---) of 20,000 input tokens per minute. For details, refer to: https://docs.anthropic.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase."},
}

func TestHTTPErrorCases(t *testing.T) {
	for _, tc := range httpErrorCases {
		t.Run(strings.TrimSuffix(tc.file, ".txt"), func(t *testing.T) {
			resp := streamcase.ParseResponse(t, streamcase.Open(t, tc.file).Payload)
			if resp.Status != tc.status {
				t.Fatalf("capture status %d, want %d", resp.Status, tc.status)
			}
			s := streamtest.NewScript(t, func(w http.ResponseWriter) { resp.Serve(w) })
			got := run(t, testProvider(s.URL, func(c *Config) { c.MaxRetries = -1 }))
			perr := streamtest.WantErr(t, got.Err, testName, tc.kind, tc.msg)
			if perr.Status != tc.status || perr.Message != tc.msg {
				t.Errorf("got %+v, want status %d message %q", *perr, tc.status, tc.msg)
			}
			if len(got.Events) != 0 || s.Hits() != 1 {
				t.Errorf("events %d, requests %d; want 0 and 1", len(got.Events), s.Hits())
			}
		})
	}
}

// TestHTTPErrorCasesRetry: 400 and 401 are not retried; 429 is, after the wait its
// retry-after or rate-limit reset header gives (1s: one retry keeps the test
// short); 529 is, after the computed backoff.
func TestHTTPErrorCasesRetry(t *testing.T) {
	for _, tc := range httpErrorCases {
		t.Run(strings.TrimSuffix(tc.file, ".txt"), func(t *testing.T) {
			resp := streamcase.ParseResponse(t, streamcase.Open(t, tc.file).Payload)
			s := streamtest.NewScript(t, func(w http.ResponseWriter) { resp.Serve(w) })
			start := time.Now()
			got := run(t, testProvider(s.URL, func(c *Config) { c.MaxRetries = 1 }))
			want := 1
			if tc.kind == provider.KindServer {
				want = 2
			}
			if tc.kind == provider.KindRateLimit {
				want = 2
				if time.Since(start) < 900*time.Millisecond {
					t.Errorf("retried after %v, want the ~1s the reset header asks", time.Since(start))
				}
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

// TestRetryHintFromCapture33: no retry-after; requests-remaining is 0 and its reset
// is one second after the response's Date.
func TestRetryHintFromCapture33(t *testing.T) {
	resp := streamcase.ParseResponse(t, streamcase.Load(t, "33-anthropic-http429-rate-limit.txt").Payload)
	d, ok := retryHint(resp.Header, "", time.Now())
	if !ok || d != time.Second {
		t.Fatalf("hint = %v, %v; want 1s", d, ok)
	}
	if resp.Header.Get("x-should-retry") != "true" {
		t.Fatal("capture 33 says x-should-retry: true")
	}
}
