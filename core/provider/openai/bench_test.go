package openai

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"

	"pincer/core/provider/internal/streamcase"
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

// BenchmarkParseStream runs capture 02 (one tool call in ~20 argument fragments)
// through Stream end to end: request encoding, SSE reading, chunk decoding, tool-call
// assembly, with the network replaced by an in-memory transport.
func BenchmarkParseStream(b *testing.B) {
	payload := streamcase.Load(b, "02-openai-chat-single-tool-split-args.txt").Payload
	p := testProvider("http://bench.invalid/v1", func(c *Config) {
		c.HTTPClient = &http.Client{Transport: memoryTransport{payload}}
	})
	req := simpleRequest()
	ctx := context.Background()
	b.SetBytes(int64(len(payload)))
	b.ReportAllocs()
	for b.Loop() {
		r := collect(p.Stream(ctx, req))
		if r.err != nil || len(r.calls) != 1 {
			b.Fatalf("err %v, calls %d", r.err, len(r.calls))
		}
	}
}
