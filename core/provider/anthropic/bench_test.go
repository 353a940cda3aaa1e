package anthropic

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"

	"pincer/core/provider/internal/streamcase"
	"pincer/core/provider/internal/streamtest"
)

// memoryTransport answers every request with payload as an event stream, in memory.
type memoryTransport struct{ payload []byte }

func (m memoryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		_ = req.Body.Close()
	}
	return &http.Response{
		StatusCode: http.StatusOK,
		Header:     http.Header{"Content-Type": {"text/event-stream"}},
		Body:       io.NopCloser(bytes.NewReader(m.payload)),
		Request:    req,
	}, nil
}

// BenchmarkParseStream runs capture 26 (one tool call in 25 input_json_delta
// fragments, padded JSON) through Stream end to end: request building and encoding by
// the SDK, SSE reading and event decoding by the SDK, tool-call assembly, with the
// network replaced by an in-memory transport.
func BenchmarkParseStream(b *testing.B) {
	payload := streamcase.Load(b, "26-anthropic-tool-input-json-delta.txt").Payload
	p := testProvider("http://bench.invalid", func(c *Config) {
		c.HTTPClient = &http.Client{Transport: memoryTransport{payload}}
	})
	req := simpleRequest()
	ctx := context.Background()
	b.SetBytes(int64(len(payload)))
	b.ReportAllocs()
	for b.Loop() {
		r := streamtest.Collect(p.Stream(ctx, req))
		if r.Err != nil || len(r.Calls) != 1 {
			b.Fatalf("err %v, calls %d", r.Err, len(r.Calls))
		}
	}
}

// BenchmarkParseFixture runs the fixture of a text block and two tool calls through
// Stream end to end, as BenchmarkParseStream, on every clone.
func BenchmarkParseFixture(b *testing.B) {
	payload := streamcase.Fixture(b, "messages-tools-cache-usage.txt").Payload
	p := testProvider("http://bench.invalid", func(c *Config) {
		c.HTTPClient = &http.Client{Transport: memoryTransport{payload}}
	})
	req := simpleRequest()
	ctx := context.Background()
	b.SetBytes(int64(len(payload)))
	b.ReportAllocs()
	for b.Loop() {
		r := streamtest.Collect(p.Stream(ctx, req))
		if r.Err != nil || len(r.Calls) != 2 {
			b.Fatalf("err %v, calls %d", r.Err, len(r.Calls))
		}
	}
}
