package responses

import (
	"strings"
	"testing"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/streamcase"
	"pincer/core/provider/internal/streamtest"
)

// TestFixtures replays the package's Responses fixtures (testdata/) byte for byte and
// checks each parse against its header's "expected parse".
func TestFixtures(t *testing.T) {
	tests := []struct {
		file            string
		text, reasoning string
		calls           []streamtest.Call
		usage           *message.Usage
		finish          string
		errKind         provider.Kind // set for streams that end in an error (no EventDone)
		errMsg          string
	}{
		{file: "responses-text-reasoning.txt", reasoning: "**Planning** the reply.\n\nKeep it short.", text: "Hi there — ✓",
			finish: "completed", usage: &message.Usage{InputTokens: 50, CacheReadTokens: 32, OutputTokens: 30, ReasoningTokens: 12}},
		{file: "responses-function-calls.txt", finish: "completed",
			calls: []streamtest.Call{{ID: "call_read", Name: "Read", Args: `{"file_path":"a.go"}`}, {ID: "call_ls", Name: "LS", Args: `{}`}},
			usage: &message.Usage{InputTokens: 400, OutputTokens: 25}},
		{file: "responses-error-event.txt", errKind: provider.KindRateLimit, errMsg: "Rate limit reached for gpt-5 on tokens per min."},
		{file: "responses-cut-off.txt", text: "half", errKind: provider.KindStream,
			errMsg: "stream ended before completion (no response.completed)"},
	}
	for _, tc := range tests {
		t.Run(strings.TrimSuffix(tc.file, ".txt"), func(t *testing.T) {
			c := streamcase.Fixture(t, tc.file)
			if !strings.Contains(c.Header, "expected parse:") {
				t.Fatalf("header of %s has no expected parse", tc.file)
			}
			got := run(t, testProvider(streamtest.SSEServer(t, c.Payload).URL, func(c *Config) { c.MaxRetries = -1 }))
			if got.Text != tc.text || got.Reasoning != tc.reasoning || got.AfterDone != 0 {
				t.Errorf("text %q reasoning %q, %d events after done", got.Text, got.Reasoning, got.AfterDone)
			}
			if tc.errKind != "" {
				perr := streamtest.WantErr(t, got.Err, testName, tc.errKind, tc.errMsg)
				if perr.Message != tc.errMsg || got.Done != 0 {
					t.Errorf("error %+v, done %d", *perr, got.Done)
				}
				return
			}
			if got.Err != nil || got.Done != 1 || got.Finish != tc.finish {
				t.Fatalf("err %v done %d finish %q", got.Err, got.Done, got.Finish)
			}
			streamtest.CheckCalls(t, got.Calls, tc.calls)
			if got.UsageEvents != 1 || got.Usage != *tc.usage {
				t.Errorf("usage %+v in %d events, want %+v", got.Usage, got.UsageEvents, *tc.usage)
			}
		})
	}
}

// TestFixtureErrorEventRetried: the rate-limit error event arrives before anything
// was delivered, so the request is retried, and the retry's answer is the stream's.
func TestFixtureErrorEventRetried(t *testing.T) {
	c := streamcase.Fixture(t, "responses-error-event.txt")
	s := streamtest.NewScript(t, streamtest.Stream(string(c.Payload)), streamtest.Stream(okStream))
	got := run(t, testProvider(s.URL))
	if got.Err != nil || got.Done != 1 || s.Hits() != 2 {
		t.Fatalf("err %v done %d requests %d", got.Err, got.Done, s.Hits())
	}
}

// TestFixtureIncompleteTruncates: under max_output_tokens a call whose arguments never
// completed is yielded marked Truncated, so the agent does not run it.
func TestFixtureIncompleteTruncates(t *testing.T) {
	c := streamcase.Fixture(t, "responses-incomplete-max-tokens.txt")
	got := run(t, testProvider(streamtest.SSEServer(t, c.Payload).URL))
	if got.Err != nil || got.Finish != "max_output_tokens" || len(got.Calls) != 1 {
		t.Fatalf("err %v finish %q calls %+v", got.Err, got.Finish, got.Calls)
	}
	call := got.Calls[0]
	if !call.Truncated || call.ToolCallID != "call_write" || call.Input != `{"file_path":"a.txt","content":"aaa` {
		t.Errorf("call %+v", call)
	}
	if want := (message.Usage{InputTokens: 20, OutputTokens: 64}); got.Usage != want {
		t.Errorf("usage %+v", got.Usage)
	}
}
