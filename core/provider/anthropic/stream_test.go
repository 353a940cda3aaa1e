package anthropic

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"pincer/core/provider"
	"pincer/core/provider/internal/streamtest"
)

// toolStart opens a tool_use block.
func toolStart(index, id, name string) string {
	return `{"type":"content_block_start","index":` + index + `,"content_block":{"type":"tool_use","id":"` + id + `","name":"` + name + `","input":{}}}`
}

// argsDelta is one input_json_delta fragment (partial is JSON-string-escaped already).
func argsDelta(index, partial string) string {
	return `{"type":"content_block_delta","index":` + index + `,"delta":{"type":"input_json_delta","partial_json":"` + partial + `"}}`
}

func blockStop(index string) string { return `{"type":"content_block_stop","index":` + index + `}` }

func stopWith(reason string) string {
	return `{"type":"message_delta","delta":{"stop_reason":"` + reason + `"},"usage":{"output_tokens":7}}`
}

// TestStreamQuirks covers shapes the captures do not.
func TestStreamQuirks(t *testing.T) {
	tests := []struct {
		name    string
		payload string
		check   func(t *testing.T, r streamtest.Result)
	}{
		{"max_tokens truncates an incomplete tool call, and one never closed",
			sse("message_start", msgStart,
				"content_block_start", toolStart("0", "toolu_a", "ls"), "content_block_delta", argsDelta("0", `{}`), "content_block_stop", blockStop("0"),
				"content_block_start", toolStart("1", "toolu_b", "read"), "content_block_delta", argsDelta("1", `{\"path\":\"/tm`), "content_block_stop", blockStop("1"),
				"content_block_start", toolStart("2", "toolu_c", "ls"),
				"message_delta", stopWith("max_tokens"), "message_stop", msgStop),
			func(t *testing.T, r streamtest.Result) {
				if r.Err != nil || r.Finish != "max_tokens" || len(r.Calls) != 3 {
					t.Fatalf("err %v finish %q calls %+v", r.Err, r.Finish, r.Calls)
				}
				if r.Calls[0].Truncated || !r.Calls[1].Truncated || r.Calls[1].Input != `{"path":"/tm` || !r.Calls[2].Truncated {
					t.Fatalf("calls = %+v", r.Calls)
				}
			}},
		{"a tool_use block is announced at its start, before its arguments",
			sse("message_start", msgStart,
				"content_block_start", toolStart("0", "toolu_a", "Edit"), "content_block_delta", argsDelta("0", `{\"n\":1}`), "content_block_stop", blockStop("0"),
				"message_delta", stopWith("tool_use"), "message_stop", msgStop),
			func(t *testing.T, r streamtest.Result) {
				if len(r.Starts) != 1 || r.Starts[0].ToolCallID != "toolu_a" || r.Starts[0].ToolName != "Edit" || r.CallsBeforeStart != 0 {
					t.Fatalf("starts %+v", r.Starts)
				}
				streamtest.CheckCalls(t, r.Calls, []streamtest.Call{{ID: "toolu_a", Name: "Edit", Args: `{"n":1}`}})
			}},
		{"zero-argument tools: no fragment, or only an empty one, give {}",
			sse("message_start", msgStart,
				"content_block_start", toolStart("0", "toolu_a", "now"), "content_block_stop", blockStop("0"),
				"content_block_start", toolStart("1", "toolu_b", "now"), "content_block_delta", argsDelta("1", ""), "content_block_stop", blockStop("1"),
				"message_delta", stopWith("tool_use"), "message_stop", msgStop),
			func(t *testing.T, r streamtest.Result) {
				streamtest.CheckCalls(t, r.Calls, []streamtest.Call{{ID: "toolu_a", Name: "now", Args: "{}"}, {ID: "toolu_b", Name: "now", Args: "{}"}})
			}},
		{"input given whole in content_block_start",
			sse("message_start", msgStart,
				"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"ls","input":{"path": "/"}}}`,
				"content_block_stop", blockStop("0"), "message_delta", stopWith("tool_use"), "message_stop", msgStop),
			func(t *testing.T, r streamtest.Result) {
				streamtest.CheckCalls(t, r.Calls, []streamtest.Call{{ID: "t", Name: "ls", Args: `{"path":"/"}`}})
			}},
		{"redacted thinking keeps its data as a marked signature",
			sse("message_start", msgStart,
				"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"ENC"}}`,
				"content_block_stop", blockStop("0"),
				"content_block_start", strings.Replace(textStart, `"index":0`, `"index":1`, 1),
				"content_block_delta", strings.Replace(textDelta, `"index":0`, `"index":1`, 1),
				"message_delta", endTurn, "message_stop", msgStop),
			func(t *testing.T, r streamtest.Result) {
				if len(r.Signatures) != 1 || r.Signatures[0] != redactedSignature("ENC") || r.Text != "hello" || r.Reasoning != "" {
					t.Fatalf("signatures %q text %q reasoning %q", r.Signatures, r.Text, r.Reasoning)
				}
			}},
		{"unknown events and block types are ignored",
			sse("message_start", msgStart,
				"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"s","name":"web_search","input":{}}}`,
				"content_block_delta", argsDelta("0", `{}`), "content_block_stop", blockStop("0"),
				"future_event", `{"type":"future_event"}`,
				"message_delta", endTurn, "message_stop", msgStop),
			func(t *testing.T, r streamtest.Result) {
				if r.Err != nil || len(r.Calls) != 0 || r.Finish != "end_turn" {
					t.Fatalf("err %v calls %+v finish %q", r.Err, r.Calls, r.Finish)
				}
			}},
		{"message_delta without message_stop still completes",
			sse("message_start", msgStart, "message_delta", endTurn),
			func(t *testing.T, r streamtest.Result) {
				if r.Err != nil || r.Done != 1 || r.Usage.OutputTokens != 5 || r.Usage.InputTokens != 10 {
					t.Fatalf("err %v done %d usage %+v", r.Err, r.Done, r.Usage)
				}
			}},
		{"a stream cut before its stop reason is an error",
			sse("message_start", msgStart, "content_block_start", toolStart("0", "t", "ls"), "content_block_delta", argsDelta("0", `{`)),
			func(t *testing.T, r streamtest.Result) {
				streamtest.WantErr(t, r.Err, testName, provider.KindStream, "stream ended before completion")
				if r.Done != 0 || len(r.Calls) != 0 {
					t.Fatalf("done %d calls %+v", r.Done, r.Calls)
				}
			}},
		{"in-stream rate limit error",
			sse("error", `{"type":"error","error":{"type":"rate_limit_error","message":"Number of concurrent\nconnections exceeded"}}`),
			func(t *testing.T, r streamtest.Result) {
				streamtest.WantErr(t, r.Err, testName, provider.KindRateLimit, "Number of concurrent connections exceeded")
			}},
		{"plain-text overloaded error event",
			"event: error\ndata: Overloaded\n\n",
			func(t *testing.T, r streamtest.Result) {
				streamtest.WantErr(t, r.Err, testName, provider.KindServer, "Overloaded")
			}},
		{"in-stream prompt too long",
			sse("error", `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 1 tokens > 0 maximum"}}`),
			func(t *testing.T, r streamtest.Result) {
				streamtest.WantErr(t, r.Err, testName, provider.KindContextLength, "prompt is too long")
			}},
		{"malformed event data",
			sse("message_start", msgStart, "content_block_delta", `{"type":"content_block_delta",`),
			func(t *testing.T, r streamtest.Result) {
				streamtest.WantErr(t, r.Err, testName, provider.KindStream, "")
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := streamtest.SSEServer(t, []byte(tc.payload))
			tc.check(t, run(t, testProvider(srv.URL, func(c *Config) { c.MaxRetries = -1 })))
		})
	}
}

func TestHTTPErrors(t *testing.T) {
	html := "<html><body>" + strings.Repeat("Bad gateway. ", 40) + "</body></html>"
	tests := []struct {
		name   string
		status int
		body   string
		kind   provider.Kind
		msg    string
	}{
		{"529 overloaded", 529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, provider.KindServer, "Overloaded"},
		{"html 502", 502, html, provider.KindServer, string([]rune(html)[:200]) + "…"},
		{"413 request too large", 413, `{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}`, provider.KindContextLength, "Request exceeds"},
		{"403 permission", 403, `{"type":"error","error":{"type":"permission_error","message":"no access"}}`, provider.KindAuth, "no access"},
		{"404 model", 404, `{"type":"error","error":{"type":"not_found_error","message":"model: x"}}`, provider.KindNotFound, "model: x"},
		{"400 other", 400, `{"type":"error","error":{"type":"invalid_request_error","message":"messages: roles must alternate"}}`, provider.KindBadRequest, "roles must alternate"},
		{"empty 500", 500, "", provider.KindServer, "Internal Server Error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := streamtest.NewScript(t, streamtest.Status(tc.status, tc.body))
			r := run(t, testProvider(s.URL, func(c *Config) { c.MaxRetries = -1 }))
			perr := streamtest.WantErr(t, r.Err, testName, tc.kind, tc.msg)
			if perr.Status != tc.status {
				t.Errorf("status %d, want %d", perr.Status, tc.status)
			}
		})
	}
}

func TestRetry(t *testing.T) {
	overloaded := `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
	t.Run("529, 500, then success", func(t *testing.T) {
		s := streamtest.NewScript(t, streamtest.Status(529, overloaded), streamtest.Status(500, overloaded), streamtest.Stream(okStream))
		r := run(t, testProvider(s.URL))
		if r.Err != nil || r.Text != "hello" || s.Hits() != 3 {
			t.Fatalf("err %v text %q requests %d", r.Err, r.Text, s.Hits())
		}
	})
	t.Run("429 with retry-after 0", func(t *testing.T) {
		s := streamtest.NewScript(t, streamtest.Status(429, overloaded, "retry-after", "0"), streamtest.Stream(okStream))
		if r := run(t, testProvider(s.URL)); r.Err != nil || s.Hits() != 2 {
			t.Fatalf("err %v requests %d", r.Err, s.Hits())
		}
	})
	t.Run("gives up after MaxRetries", func(t *testing.T) {
		s := streamtest.NewScript(t, streamtest.Status(529, overloaded))
		r := run(t, testProvider(s.URL, func(c *Config) { c.MaxRetries = 2 }))
		streamtest.WantErr(t, r.Err, testName, provider.KindServer, "Overloaded")
		if s.Hits() != 3 {
			t.Fatalf("requests %d, want 3", s.Hits())
		}
	})
	for _, tc := range []struct {
		name string
		resp func(http.ResponseWriter)
	}{
		{"x-should-retry false", streamtest.Status(503, overloaded, "x-should-retry", "false")},
		{"retry-after beyond the limit", streamtest.Status(429, overloaded, "retry-after", "120")},
		{"401", streamtest.Status(401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`)},
	} {
		t.Run("no retry: "+tc.name, func(t *testing.T) {
			s := streamtest.NewScript(t, tc.resp, streamtest.Stream(okStream))
			if r := run(t, testProvider(s.URL)); r.Err == nil || s.Hits() != 1 {
				t.Fatalf("err %v requests %d", r.Err, s.Hits())
			}
		})
	}
	t.Run("connection refused is a retried network error", func(t *testing.T) {
		s := streamtest.NewScript(t, streamtest.Stream(okStream))
		url := s.URL
		s.Close()
		r := run(t, testProvider(url, func(c *Config) { c.MaxRetries = 1 }))
		streamtest.WantErr(t, r.Err, testName, provider.KindNetwork, "")
	})
}

// TestStall: a server that goes silent, before its headers or mid-stream, fails the
// stream with KindStream once StallTimeout passes.
func TestStall(t *testing.T) {
	for _, tc := range []struct {
		name string
		resp func(w http.ResponseWriter, release chan struct{})
	}{
		{"before headers", func(w http.ResponseWriter, release chan struct{}) { <-release }},
		{"mid-stream", func(w http.ResponseWriter, release chan struct{}) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write([]byte(sse("message_start", msgStart, "content_block_start", textStart, "content_block_delta", textDelta)))
			w.(http.Flusher).Flush()
			<-release
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			release := make(chan struct{})
			s := streamtest.NewScript(t, func(w http.ResponseWriter) { tc.resp(w, release) })
			t.Cleanup(func() { close(release) }) // before the server's Close, which waits for handlers
			r := run(t, testProvider(s.URL, func(c *Config) { c.StallTimeout = 100 * time.Millisecond; c.MaxRetries = -1 }))
			streamtest.WantErr(t, r.Err, testName, provider.KindStream, "stream stalled: no data for 100ms")
		})
	}
}

// TestCancel: the caller's ctx ending mid-stream yields ctx.Err() itself.
func TestCancel(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	s := streamtest.NewScript(t, func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(sse("message_start", msgStart, "content_block_start", textStart, "content_block_delta", textDelta)))
		w.(http.Flusher).Flush()
		<-release
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var errs []error
	for ev, err := range testProvider(s.URL).Stream(ctx, simpleRequest()) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if ev.Type == provider.EventTextDelta {
			cancel()
		}
	}
	if len(errs) != 1 || !errors.Is(errs[0], context.Canceled) {
		t.Fatalf("errors %v, want one context.Canceled", errs)
	}
}

// TestConsumerStops: breaking out of the range loop ends the stream quietly.
func TestConsumerStops(t *testing.T) {
	srv := streamtest.SSEServer(t, []byte(okStream))
	n := 0
	for range testProvider(srv.URL).Stream(context.Background(), simpleRequest()) {
		n++
		break
	}
	if n != 1 {
		t.Fatalf("%d iterations", n)
	}
}

func TestErrorRedactsAPIKey(t *testing.T) {
	const key = "sk-ant-secret-1234567890"
	s := streamtest.NewScript(t, streamtest.Status(401, `{"type":"error","error":{"type":"authentication_error","message":"bad key `+key+`"}}`))
	r := run(t, testProvider(s.URL, func(c *Config) { c.APIKey = key }))
	if r.Err == nil || strings.Contains(r.Err.Error(), key) || !strings.Contains(r.Err.Error(), "[redacted]") {
		t.Fatalf("error %v: the key must be replaced by [redacted]", r.Err)
	}
}
