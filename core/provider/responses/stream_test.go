package responses

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"pincer/core/provider"
	"pincer/core/provider/internal/streamtest"
)

// Function-call events of one call, item fc_1 / call c1.
const (
	callAdded = `{"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","id":"fc_1","call_id":"c1","name":"read","arguments":"","status":"in_progress"}}`
	argsDelta = `{"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":1,"delta":"{\"path\":"}`
)

// TestStreamQuirks covers shapes the captures do not.
func TestStreamQuirks(t *testing.T) {
	tests := []struct {
		name    string
		payload string
		check   func(t *testing.T, r streamtest.Result)
	}{
		{"reasoning summaries, parts separated; text; refusal", events(
			`{"type":"response.reasoning_summary_part.added","item_id":"rs_1","summary_index":0}`,
			`{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","summary_index":0,"delta":"**Plan**"}`,
			`{"type":"response.reasoning_summary_part.added","item_id":"rs_1","summary_index":1}`,
			`{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","summary_index":1,"delta":"then act"}`,
			textDelta,
			`{"type":"response.refusal.delta","item_id":"msg_1","delta":" (no)"}`,
			completed),
			func(t *testing.T, r streamtest.Result) {
				if r.Reasoning != "**Plan**\n\nthen act" || r.Text != "hello (no)" || r.Finish != "completed" {
					t.Fatalf("reasoning %q text %q finish %q", r.Reasoning, r.Text, r.Finish)
				}
				if r.Usage.InputTokens != 12 || r.Usage.CacheReadTokens != 8 || r.Usage.OutputTokens != 30 || r.Usage.ReasoningTokens != 20 {
					t.Fatalf("usage %+v", r.Usage)
				}
			}},
		{"incomplete at max_output_tokens truncates an unfinished call", events(callAdded, argsDelta,
			`{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"usage":{"input_tokens":5,"output_tokens":9}}}`),
			func(t *testing.T, r streamtest.Result) {
				if r.Finish != "max_output_tokens" || len(r.Calls) != 1 || !r.Calls[0].Truncated || r.Calls[0].Input != `{"path":` || r.Calls[0].ToolCallID != "c1" {
					t.Fatalf("finish %q calls %+v", r.Finish, r.Calls)
				}
				if len(r.Starts) != 1 || r.Starts[0].ToolCallID != "c1" || r.Starts[0].ToolName != "read" || r.CallsBeforeStart != 0 {
					t.Fatalf("the call was not announced when added: %+v", r.Starts)
				}
			}},
		{"deltas without a done event still make the call", events(callAdded, argsDelta,
			`{"type":"response.function_call_arguments.delta","item_id":"fc_1","delta":"\"a\"}"}`, completed),
			func(t *testing.T, r streamtest.Result) {
				streamtest.CheckCalls(t, r.Calls, []streamtest.Call{{ID: "c1", Name: "read", Args: `{"path":"a"}`}})
			}},
		{"event type from the SSE name when the JSON has none",
			"event: response.output_text.delta\ndata: {\"delta\":\"hi\"}\n\n" + events(completed),
			func(t *testing.T, r streamtest.Result) {
				if r.Err != nil || r.Text != "hi" {
					t.Fatalf("err %v text %q", r.Err, r.Text)
				}
			}},
		{"a cut stream is an error", events(textDelta),
			func(t *testing.T, r streamtest.Result) {
				streamtest.WantErr(t, r.Err, testName, provider.KindStream, "no response.completed")
			}},
		{"response.failed alone", events(`{"type":"response.failed","response":{"status":"failed","error":{"code":"server_error","message":"The model failed."}}}`),
			func(t *testing.T, r streamtest.Result) {
				streamtest.WantErr(t, r.Err, testName, provider.KindServer, "The model failed.")
			}},
		{"error event with top-level fields", events(`{"type":"error","code":"rate_limit_exceeded","message":"Slow down.","param":null}`),
			func(t *testing.T, r streamtest.Result) {
				streamtest.WantErr(t, r.Err, testName, provider.KindRateLimit, "Slow down.")
			}},
		{"context too long in-band", events(`{"type":"error","code":"context_length_exceeded","message":"Your input exceeds the context window of this model."}`),
			func(t *testing.T, r streamtest.Result) {
				streamtest.WantErr(t, r.Err, testName, provider.KindContextLength, "context window")
			}},
		{"malformed event", "event: response.output_text.delta\ndata: {\"delta\":\n\n",
			func(t *testing.T, r streamtest.Result) {
				streamtest.WantErr(t, r.Err, testName, provider.KindStream, "malformed event")
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := streamtest.SSEServer(t, []byte(tc.payload))
			tc.check(t, run(t, testProvider(srv.URL, func(c *Config) { c.MaxRetries = -1 })))
		})
	}
}

func TestRetryAndHTTPErrors(t *testing.T) {
	t.Run("503 then 429 retry-after-ms then success", func(t *testing.T) {
		s := streamtest.NewScript(t, streamtest.Status(503, `{"error":{"message":"busy"}}`),
			streamtest.Status(429, `{"error":{"message":"slow","type":"rate_limit_error"}}`, "retry-after-ms", "5"), streamtest.Stream(okStream))
		if r := run(t, testProvider(s.URL)); r.Err != nil || r.Text != "hello" || s.Hits() != 3 {
			t.Fatalf("err %v text %q requests %d", r.Err, r.Text, s.Hits())
		}
	})
	t.Run("in-stream server error before any event is retried", func(t *testing.T) {
		s := streamtest.NewScript(t, streamtest.Stream(events(`{"type":"response.failed","response":{"error":{"code":"server_error","message":"oops"}}}`)), streamtest.Stream(okStream))
		if r := run(t, testProvider(s.URL)); r.Err != nil || s.Hits() != 2 {
			t.Fatalf("err %v requests %d", r.Err, s.Hits())
		}
	})
	tests := []struct {
		name   string
		status int
		body   string
		kind   provider.Kind
		msg    string
	}{
		{"401", 401, `{"error":{"message":"Incorrect API key provided: sk-test.","type":"invalid_request_error","code":"invalid_api_key"}}`, provider.KindAuth, "Incorrect API key provided: [redacted]."},
		{"quota 429 is billing", 429, `{"error":{"message":"You exceeded your current quota.","type":"insufficient_quota","code":"insufficient_quota"}}`, provider.KindBilling, "You exceeded your current quota."},
		{"context length", 400, `{"error":{"message":"Your input exceeds the context window of this model.","code":"context_length_exceeded"}}`, provider.KindContextLength, "context window"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := streamtest.NewScript(t, streamtest.Status(tc.status, tc.body), streamtest.Stream(okStream))
			r := run(t, testProvider(s.URL))
			perr := streamtest.WantErr(t, r.Err, testName, tc.kind, tc.msg)
			if perr.Status != tc.status || s.Hits() != 1 {
				t.Errorf("status %d requests %d", perr.Status, s.Hits())
			}
		})
	}
}

func TestStallAndCancel(t *testing.T) {
	hang := func(release chan struct{}) func(http.ResponseWriter) {
		return func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write([]byte(events(textDelta)))
			w.(http.Flusher).Flush()
			<-release
		}
	}
	t.Run("stall", func(t *testing.T) {
		release := make(chan struct{})
		s := streamtest.NewScript(t, hang(release))
		t.Cleanup(func() { close(release) })
		r := run(t, testProvider(s.URL, func(c *Config) { c.StallTimeout = 50 * time.Millisecond }))
		streamtest.WantErr(t, r.Err, testName, provider.KindStream, "stream stalled")
	})
	t.Run("cancel", func(t *testing.T) {
		release := make(chan struct{})
		s := streamtest.NewScript(t, hang(release))
		t.Cleanup(func() { close(release) })
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var errs []error
		for ev, err := range testProvider(s.URL).Stream(ctx, simpleRequest()) {
			if err != nil {
				errs = append(errs, err)
			} else if ev.Type == provider.EventTextDelta {
				cancel()
			}
		}
		if len(errs) != 1 || !errors.Is(errs[0], context.Canceled) {
			t.Fatalf("errors %v", errs)
		}
	})
}
