package openai

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/streamtest"
)

// Chunks used by several tests.
const (
	textChunk   = `{"choices":[{"index":0,"delta":{"content":"hello"}}]}`
	stopChunk   = `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`
	lengthChunk = `{"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}`
)

// TestStreamQuirks covers dialect shapes the captures do not: each stream is decoded
// and folded, then checked.
func TestStreamQuirks(t *testing.T) {
	tests := []struct {
		name    string
		payload string
		check   func(t *testing.T, r streamtest.Result)
	}{
		{"length truncates a tool call with invalid JSON", events(
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"read","arguments":"{\"path\":\"/tm"}}]}}]}`,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"ls","arguments":"{}"}}]}}]}`,
			lengthChunk, "[DONE]"),
			func(t *testing.T, r streamtest.Result) {
				if len(r.Calls) != 2 || !r.Calls[0].Truncated || r.Calls[0].Input != `{"path":"/tm` || r.Calls[1].Truncated {
					t.Fatalf("calls = %+v", r.Calls)
				}
			}},
		{"invalid JSON without length is not truncated", events(
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"x","arguments":"{"}}]},"finish_reason":"tool_calls"}]}`),
			func(t *testing.T, r streamtest.Result) {
				if len(r.Calls) != 1 || r.Calls[0].Truncated || r.Calls[0].Input != "{" {
					t.Fatalf("calls = %+v", r.Calls)
				}
			}},
		{"a call is announced (id, name) when its name arrives, before its arguments end", events(
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"Edit","arguments":""}}]}}]}`,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"n\":"}}]}}]}`,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"Edit","arguments":"1}"}}]}}]}`,
			`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`),
			func(t *testing.T, r streamtest.Result) {
				if len(r.Starts) != 1 || r.Starts[0].ToolCallID != "a" || r.Starts[0].ToolName != "Edit" || r.Events[0].Type != provider.EventToolCallStart {
					t.Fatalf("starts %+v, events %+v", r.Starts, r.Events)
				}
				streamtest.CheckCalls(t, r.Calls, []streamtest.Call{{ID: "a", Name: "Edit", Args: `{"n":1}`}})
			}},
		{"interleaved indexes, index 1 first", events(
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"two","arguments":"{\"n\":"}}]}}]}`,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"one","arguments":"{\"n\":"}}]}}]}`,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"2}"}},{"index":0,"function":{"arguments":"1}"}}]}}]}`,
			`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`),
			func(t *testing.T, r streamtest.Result) {
				streamtest.CheckCalls(t, r.Calls, []streamtest.Call{{ID: "a", Name: "one", Args: `{"n":1}`}, {ID: "b", Name: "two", Args: `{"n":2}`}})
			}},
		{"same index with a new id is a new call", events(
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"one","arguments":"{}"}}]}}]}`,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"b","function":{"name":"two","arguments":"{}"}}]}}]}`,
			`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`),
			func(t *testing.T, r streamtest.Result) {
				streamtest.CheckCalls(t, r.Calls, []streamtest.Call{{ID: "a", Name: "one", Args: `{}`}, {ID: "b", Name: "two", Args: `{}`}})
			}},
		{"no index: keyed by id, then continuation", events(
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"id":"a","function":{"name":"one","arguments":"{\"x\""}}]}}]}`,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":":1}"}}]}}]}`,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"id":"b","function":{"name":"two","arguments":"{}"}}]}}]}`,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"id":"a","function":{"arguments":""}}]},"finish_reason":"tool_calls"}]}`),
			func(t *testing.T, r streamtest.Result) {
				streamtest.CheckCalls(t, r.Calls, []streamtest.Call{{ID: "a", Name: "one", Args: `{"x":1}`}, {ID: "b", Name: "two", Args: `{}`}})
			}},
		{"arguments sent as an object", events(
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"one","arguments":{"x": 1}}}]},"finish_reason":"tool_calls"}]}`),
			func(t *testing.T, r streamtest.Result) {
				streamtest.CheckCalls(t, r.Calls, []streamtest.Call{{ID: "a", Name: "one", Args: `{"x":1}`}})
			}},
		{"missing id is synthesized and unique", events(
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"one","arguments":"{}"}},{"index":1,"function":{"name":"two","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`),
			func(t *testing.T, r streamtest.Result) {
				streamtest.CheckCalls(t, r.Calls, []streamtest.Call{{ID: "call_*", Name: "one", Args: `{}`}, {ID: "call_*", Name: "two", Args: `{}`}})
				if r.Calls[0].ToolCallID == r.Calls[1].ToolCallID {
					t.Fatalf("ids collide: %q", r.Calls[0].ToolCallID)
				}
			}},
		{"refusal is text", events(`{"choices":[{"index":0,"delta":{"content":null,"refusal":"I can't help with that."}}]}`, stopChunk),
			func(t *testing.T, r streamtest.Result) {
				if r.Text != "I can't help with that." {
					t.Fatalf("text = %q", r.Text)
				}
			}},
		{"other choices ignored", events(`{"choices":[{"index":1,"delta":{"content":"B"}},{"index":0,"delta":{"content":"A"}}]}`, stopChunk),
			func(t *testing.T, r streamtest.Result) {
				if r.Text != "A" {
					t.Fatalf("text = %q", r.Text)
				}
			}},
		{"x_groq usage alone, DeepSeek cache hits, float counts", events(textChunk, stopChunk,
			`{"choices":[],"x_groq":{"usage":{"prompt_tokens":12.0,"completion_tokens":"3","prompt_cache_hit_tokens":8}}}`),
			func(t *testing.T, r streamtest.Result) {
				if want := (message.Usage{InputTokens: 12, OutputTokens: 3, CacheReadTokens: 8}); !sameUsage(r.Usage, want) {
					t.Fatalf("usage = %s", fmtUsage(r.Usage))
				}
			}},
		{"a repeated usage is reported once, a changed one again", events(textChunk,
			`{"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":1}}`,
			`{"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":1}}`,
			`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2}}`),
			func(t *testing.T, r streamtest.Result) {
				if r.UsageEvents != 2 || r.Usage.OutputTokens != 2 {
					t.Fatalf("usage events %d, usage %s", r.UsageEvents, fmtUsage(r.Usage))
				}
			}},
		{"reasoning_details only, with summary", events(
			`{"choices":[{"index":0,"delta":{"reasoning_details":[{"type":"reasoning.text","text":"a"},{"type":"reasoning.summary","summary":"b"}]}}]}`, stopChunk),
			func(t *testing.T, r streamtest.Result) {
				if r.Reasoning != "ab" {
					t.Fatalf("reasoning = %q", r.Reasoning)
				}
			}},
		{"CR-only line endings", strings.ReplaceAll(events(textChunk, stopChunk, "[DONE]"), "\n", "\r"),
			func(t *testing.T, r streamtest.Result) {
				if r.Text != "hello" || r.Finish != "stop" || r.Err != nil {
					t.Fatalf("result = %+v", r)
				}
			}},
		{"DONE without finish_reason", events(textChunk, "[DONE]"),
			func(t *testing.T, r streamtest.Result) {
				if r.Err != nil || r.Done != 1 || r.Finish != "" {
					t.Fatalf("result = %+v", r)
				}
			}},
		{"nothing after DONE is read", events(textChunk, stopChunk, "[DONE]", `{"choices":[{"index":0,"delta":{"content":"late"}}]}`),
			func(t *testing.T, r streamtest.Result) {
				if r.Text != "hello" || r.AfterDone != 0 {
					t.Fatalf("result = %+v", r)
				}
			}},
		{"cut stream: error, no tool calls", events(
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"x","arguments":"{\"a"}}]}}]}`),
			func(t *testing.T, r streamtest.Result) {
				streamtest.WantErr(t, r.Err, testName, provider.KindStream, "stream ended before completion")
				if len(r.Calls) != 0 || r.Done != 0 {
					t.Fatalf("result = %+v", r)
				}
			}},
		{"malformed chunk", events(textChunk, `{"choices":[`),
			func(t *testing.T, r streamtest.Result) {
				streamtest.WantErr(t, r.Err, testName, provider.KindStream, "malformed chunk")
				if r.Text != "hello" {
					t.Fatalf("text = %q", r.Text)
				}
			}},
		{"data lines without blank separators (GLM-4.7, Kimi-K2.5 relays)",
			"data: " + textChunk + "\ndata: " + textChunk + "\ndata: " + stopChunk + "\ndata: [DONE]\n\n",
			func(t *testing.T, r streamtest.Result) {
				if r.Err != nil || r.Text != "hellohello" || r.Finish != "stop" {
					t.Fatalf("result = %+v", r)
				}
			}},
		{"unknown named event with other data is skipped", "event: ping\ndata: pong\n\n" + events(textChunk, stopChunk),
			func(t *testing.T, r streamtest.Result) {
				if r.Err != nil || r.Text != "hello" {
					t.Fatalf("result = %+v", r)
				}
			}},
		{"event error with plain text", "event: error\ndata: upstream went away\n\n",
			func(t *testing.T, r streamtest.Result) {
				perr := streamtest.WantErr(t, r.Err, testName, provider.KindStream, "upstream went away")
				if perr.Status != 0 {
					t.Fatalf("status = %d", perr.Status)
				}
			}},
		{"OpenRouter error with finish_reason error in the same chunk", events(textChunk,
			`{"error":{"code":"server_error","message":"Provider disconnected"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}`),
			func(t *testing.T, r streamtest.Result) {
				perr := streamtest.WantErr(t, r.Err, testName, provider.KindServer, "")
				if perr.Message != "Provider disconnected" || r.Done != 0 {
					t.Fatalf("message %q, done %d", perr.Message, r.Done)
				}
			}},
		{"in-band context-length error is classified", events(
			`{"error":{"message":"This model's maximum context length is 8192 tokens","code":"context_length_exceeded"}}`),
			func(t *testing.T, r streamtest.Result) {
				streamtest.WantErr(t, r.Err, testName, provider.KindContextLength, "maximum context length")
			}},
		{"in-band error after text is not retried", events(textChunk, `{"error":{"message":"Rate limit exceeded","code":429}}`),
			func(t *testing.T, r streamtest.Result) {
				streamtest.WantErr(t, r.Err, testName, provider.KindRateLimit, "Rate limit exceeded")
				if r.Text != "hello" {
					t.Fatalf("text = %q", r.Text)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, testProvider(streamtest.SSEServer(t, []byte(tc.payload)).URL))
			tc.check(t, r)
		})
	}
}

func TestStreamNonStreamedJSON(t *testing.T) {
	body := `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hi","reasoning_content":"think","tool_calls":[{"id":"c1","type":"function","function":{"name":"ls","arguments":"{}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":5,"completion_tokens":2}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	defer srv.Close()
	r := run(t, testProvider(srv.URL))
	if r.Err != nil || r.Text != "hi" || r.Reasoning != "think" || r.Finish != "tool_calls" || r.Usage.InputTokens != 5 {
		t.Fatalf("result = %+v", r)
	}
	streamtest.CheckCalls(t, r.Calls, []streamtest.Call{{ID: "c1", Name: "ls", Args: "{}"}})
}

func TestStreamJSONErrorOn200(t *testing.T) {
	tests := []struct{ contentType, body string }{
		{"application/json; charset=utf-8", `{"error":{"message":"model is loading","type":"server_error"}}`},
		{"text/event-stream", "\n" + `{"error":{"message":"model is loading","type":"server_error"}}`},
		{"", `[{"error":{"code":503,"message":"model is loading","status":"UNAVAILABLE"}}]`},
	}
	for _, tc := range tests {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", tc.contentType)
			_, _ = w.Write([]byte(tc.body))
		}))
		r := run(t, testProvider(srv.URL, func(c *Config) { c.MaxRetries = -1 }))
		srv.Close()
		streamtest.WantErr(t, r.Err, testName, provider.KindServer, "model is loading")
	}
}

func TestStreamMislabelledAsJSON(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, events(textChunk, stopChunk, "[DONE]"))
	}))
	defer srv.Close()
	r := run(t, testProvider(srv.URL))
	if r.Err != nil || r.Text != "hello" || r.Finish != "stop" {
		t.Fatalf("result = %+v", r)
	}
}

// blockingServer writes head (after headers, if any) and then holds the response open
// until the client goes away, then signals gone. beforeHeaders holds it before any
// byte.
func blockingServer(t *testing.T, head string, beforeHeaders bool) (*httptest.Server, chan struct{}) {
	t.Helper()
	gone := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The server notices a client that went away only once the request body has
		// been read to its end.
		_, _ = io.Copy(io.Discard, r.Body)
		if !beforeHeaders {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write([]byte(head))
			w.(http.Flusher).Flush()
		}
		<-r.Context().Done()
		gone <- struct{}{}
	}))
	t.Cleanup(srv.Close)
	return srv, gone
}

func TestStreamStall(t *testing.T) {
	for _, before := range []bool{false, true} {
		srv, _ := blockingServer(t, events(textChunk), before)
		r := run(t, testProvider(srv.URL, func(c *Config) { c.StallTimeout = 50 * time.Millisecond }))
		perr := streamtest.WantErr(t, r.Err, testName, provider.KindStream, "stream stalled: no data for 50ms")
		if perr.Error() != "testprov: stream error: stream stalled: no data for 50ms" {
			t.Errorf("Error() = %q", perr.Error())
		}
		if !before && r.Text != "hello" {
			t.Errorf("text = %q", r.Text)
		}
	}
	if got := New(Config{}).conn.Caller.StallError().Message; got != "stream stalled: no data for 90s" {
		t.Errorf("default stall message = %q", got)
	}
}

func TestStreamKeepAliveResetsStall(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for range 20 {
			_, _ = w.Write([]byte(": OPENROUTER PROCESSING\n\n"))
			w.(http.Flusher).Flush()
			time.Sleep(20 * time.Millisecond)
		}
		_, _ = io.WriteString(w, events(textChunk, stopChunk, "[DONE]"))
	}))
	defer srv.Close()
	// 400ms of comments in total, never 250ms of silence.
	r := run(t, testProvider(srv.URL, func(c *Config) { c.StallTimeout = 250 * time.Millisecond }))
	if r.Err != nil || r.Text != "hello" {
		t.Fatalf("result = %+v", r)
	}
}

func TestStreamContextCancelledMidStream(t *testing.T) {
	srv, gone := blockingServer(t, events(textChunk), false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var errs []error
	for ev, err := range testProvider(srv.URL).Stream(ctx, simpleRequest()) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if ev.Type == provider.EventTextDelta {
			cancel()
		}
	}
	if len(errs) != 1 || !errors.Is(errs[0], context.Canceled) {
		t.Fatalf("errors = %v, want one context.Canceled", errs)
	}
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the request was not aborted")
	}
}

func TestStreamConsumerStops(t *testing.T) {
	srv, gone := blockingServer(t, events(textChunk), false)
	n := 0
	for range testProvider(srv.URL).Stream(context.Background(), simpleRequest()) {
		n++
		break
	}
	if n != 1 {
		t.Fatalf("n = %d", n)
	}
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the request was not aborted after the consumer stopped")
	}
}
