package responses

import (
	"strings"
	"testing"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/streamcase"
	"pincer/core/provider/internal/streamtest"
)

// TestCase05 replays the Responses API capture 05 byte for byte: one function call
// identified by its call_id, arguments equal to the concatenated deltas, usage from
// response.completed.
func TestCase05(t *testing.T) {
	c := streamcase.Load(t, "05-openai-responses-function-call.txt")
	if !strings.Contains(c.Header, "expected parse:") {
		t.Fatal("header has no expected parse")
	}
	got := run(t, testProvider(streamtest.SSEServer(t, c.Payload).URL, func(c *Config) { c.MaxRetries = -1 }))
	if got.Err != nil {
		t.Fatal(got.Err)
	}
	streamtest.CheckCalls(t, got.Calls, []streamtest.Call{{ID: "call_kL0PCQV7M2WMoVX8V8OtYSAL", Name: "get_capital", Args: `{"country":"France"}`}})
	if got.Text != "" || got.Reasoning != "" || got.Done != 1 || got.Finish != "completed" || got.AfterDone != 0 {
		t.Errorf("text %q reasoning %q done %d finish %q", got.Text, got.Reasoning, got.Done, got.Finish)
	}
	if want := (message.Usage{InputTokens: 255, OutputTokens: 16}); got.UsageEvents != 1 || got.Usage != want {
		t.Errorf("usage %+v in %d events, want %+v", got.Usage, got.UsageEvents, want)
	}
}

// TestCase06 replays capture 06: an "error" event (insufficient_quota) on an HTTP 200
// stream, then response.failed. It is a billing error, never retried.
func TestCase06(t *testing.T) {
	c := streamcase.Load(t, "06-openai-responses-error-event.txt")
	s := streamtest.NewScript(t, streamtest.Stream(string(c.Payload)), streamtest.Stream(okStream))
	got := run(t, testProvider(s.URL))
	perr := streamtest.WantErr(t, got.Err, testName, provider.KindBilling,
		"You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.")
	if perr.Retryable() || perr.Status != 0 || s.Hits() != 1 {
		t.Errorf("retryable %v status %d requests %d", perr.Retryable(), perr.Status, s.Hits())
	}
	if len(got.Events) != 0 || got.Done != 0 {
		t.Errorf("events %v", got.Events)
	}
}
