package openai

import (
	"context"
	"net/http"
	"testing"

	"pincer/core/provider/internal/streamcase"
	"pincer/core/provider/internal/streamtest"
)

// BenchmarkParseStream runs capture 02 (one tool call in ~20 argument fragments)
// through Stream end to end (it is skipped without shared/; BenchmarkParseFixture
// always runs): request encoding, SSE reading, chunk decoding, tool-call
// assembly, with the network replaced by an in-memory transport.
func BenchmarkParseStream(b *testing.B) {
	payload := streamcase.Load(b, "02-openai-chat-single-tool-split-args.txt").Payload
	p := testProvider("http://bench.invalid/v1", func(c *Config) {
		c.HTTPClient = &http.Client{Transport: streamtest.MemoryTransport{Payload: payload}}
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

// BenchmarkParseFixture runs the fixture of two interleaved tool calls through Stream
// end to end, as BenchmarkParseStream, on every clone.
func BenchmarkParseFixture(b *testing.B) {
	payload := streamcase.Fixture(b, "chat-parallel-tools-split-args.txt").Payload
	p := testProvider("http://bench.invalid/v1", func(c *Config) {
		c.HTTPClient = &http.Client{Transport: streamtest.MemoryTransport{Payload: payload}}
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
