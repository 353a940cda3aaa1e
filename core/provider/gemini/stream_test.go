package gemini

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"pincer/core/provider"
	"pincer/core/provider/internal/streamtest"
)

// TestStreamQuirks covers shapes the captures do not.
func TestStreamQuirks(t *testing.T) {
	tests := []struct {
		name    string
		payload string
		check   func(t *testing.T, r streamtest.Result)
	}{
		{"thought parts are reasoning; a signature on a text part is a reasoning signature",
			chunks(`{"candidates":[{"content":{"role":"model","parts":[{"text":"**Plan**","thought":true}]}}]}`,
				`{"candidates":[{"content":{"role":"model","parts":[{"text":"Hi","thoughtSignature":"SIG"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":2,"cachedContentTokenCount":3,"thoughtsTokenCount":7}}`),
			func(t *testing.T, r streamtest.Result) {
				if r.Reasoning != "**Plan**" || r.Text != "Hi" || len(r.Signatures) != 1 || r.Signatures[0] != "SIG" {
					t.Fatalf("reasoning %q text %q signatures %q", r.Reasoning, r.Text, r.Signatures)
				}
				if r.Usage.InputTokens != 4 || r.Usage.CacheReadTokens != 3 || r.Usage.OutputTokens != 9 || r.Usage.ReasoningTokens != 7 {
					t.Fatalf("usage %+v", r.Usage)
				}
			}},
		{"MAX_TOKENS in the middle of a streamed call truncates it",
			chunks(`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"write","willContinue":true}}]}}],"responseId":"R"}`,
				`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.path","stringValue":"a.go"},{"jsonPath":"$.body","stringValue":"package","willContinue":true}],"willContinue":true}}]},"finishReason":"MAX_TOKENS"}]}`),
			func(t *testing.T, r streamtest.Result) {
				if r.Finish != "MAX_TOKENS" || len(r.Calls) != 1 || !r.Calls[0].Truncated || r.Calls[0].Input != `{"path":"a.go","body":"package"}` {
					t.Fatalf("finish %q calls %+v", r.Finish, r.Calls)
				}
			}},
		{"partial args of every kind, nested paths, ids when sent",
			chunks(`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"fc1","name":"f","willContinue":true}}]}}]}`,
				`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.opts.depth","numberValue":2},{"jsonPath":"$.opts['dry run']","boolValue":true},{"jsonPath":"$.tags[1]","stringValue":"b"},{"jsonPath":"$.tags[0]","stringValue":"a<b"},{"jsonPath":"$.none","nullValue":"NULL_VALUE"}],"willContinue":true}}]}}]}`,
				`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{}}]},"finishReason":"STOP"}]}`),
			func(t *testing.T, r streamtest.Result) {
				streamtest.CheckCalls(t, r.Calls, []streamtest.Call{{ID: "fc1", Name: "f", Args: `{"opts":{"depth":2,"dry run":true},"tags":["a<b","b"],"none":null}`}})
			}},
		{"a call without a response id gets a random stable stem",
			chunks(`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"ls"}},{"functionCall":{"name":"ls","args":{"d":1}}}]},"finishReason":"STOP"}]}`),
			func(t *testing.T, r streamtest.Result) {
				streamtest.CheckCalls(t, r.Calls, []streamtest.Call{{ID: "gemini-call-*", Name: "ls", Args: "{}"}, {ID: "gemini-call-*", Name: "ls", Args: `{"d":1}`}})
				if r.Calls[0].ToolCallID[:len(r.Calls[0].ToolCallID)-1] != r.Calls[1].ToolCallID[:len(r.Calls[1].ToolCallID)-1] {
					t.Errorf("ids %q %q should share a stem", r.Calls[0].ToolCallID, r.Calls[1].ToolCallID)
				}
			}},
		{"no finishReason is a cut stream", chunks(helloChunk),
			func(t *testing.T, r streamtest.Result) {
				streamtest.WantErr(t, r.Err, testName, provider.KindStream, "no finishReason")
				if r.Done != 0 || r.Text != "hello" {
					t.Fatalf("done %d text %q", r.Done, r.Text)
				}
			}},
		{"blocked prompt", chunks(`{"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":9}}`),
			func(t *testing.T, r streamtest.Result) {
				streamtest.WantErr(t, r.Err, testName, provider.KindBadRequest, "prompt blocked: SAFETY")
			}},
		{"malformed chunk", chunks(`{"candidates":[`),
			func(t *testing.T, r streamtest.Result) {
				streamtest.WantErr(t, r.Err, testName, provider.KindStream, "malformed chunk")
			}},
		{"LF framing works too", "data: " + helloChunk + "\n\ndata: " + stopChunk + "\n\n",
			func(t *testing.T, r streamtest.Result) {
				if r.Err != nil || r.Text != "hello" || r.Finish != "STOP" {
					t.Fatalf("err %v text %q finish %q", r.Err, r.Text, r.Finish)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := streamtest.SSEServer(t, []byte(tc.payload))
			tc.check(t, run(t, testProvider(srv.URL, func(c *Config) { c.MaxRetries = -1 })))
		})
	}
}

// TestStall: a silent server fails the stream once StallTimeout passes.
func TestStall(t *testing.T) {
	release := make(chan struct{})
	s := streamtest.NewScript(t, func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(chunks(helloChunk)))
		w.(http.Flusher).Flush()
		<-release
	})
	t.Cleanup(func() { close(release) })
	r := run(t, testProvider(s.URL, func(c *Config) { c.StallTimeout = 50 * time.Millisecond }))
	streamtest.WantErr(t, r.Err, testName, provider.KindStream, "stream stalled: no data for 50ms")
	if r.Text != "hello" || s.Hits() != 1 {
		t.Fatalf("text %q requests %d", r.Text, s.Hits())
	}
}

// TestCancel: the caller's ctx ending yields ctx.Err() itself.
func TestCancel(t *testing.T) {
	release := make(chan struct{})
	s := streamtest.NewScript(t, func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(chunks(helloChunk)))
		w.(http.Flusher).Flush()
		<-release
	})
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
}
