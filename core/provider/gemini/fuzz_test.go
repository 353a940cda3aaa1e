package gemini

import (
	"context"
	"net/http"
	"testing"
	"time"

	"pincer/core/provider/internal/streamcase"
	"pincer/core/provider/internal/streamtest"
)

// FuzzGeminiStream serves arbitrary bytes as a 200 event-stream body through Stream (network
// replaced by an in-memory transport, no retries): the decoder must never panic or
// hang, and the stream must end with exactly one Done event or an error, nothing after
// Done.
func FuzzGeminiStream(f *testing.F) {
	for _, name := range []string{"22-gemini-native-text-crlf.txt", "23-gemini-native-parallel-function-calls-crlf.txt", "24-gemini3-vertex-partial-args.txt"} {
		if c, ok := streamcase.Optional(f, name); ok {
			f.Add(c.Payload)
		}
	}
	for _, name := range streamcase.Fixtures(f, ".txt") {
		f.Add(streamcase.Fixture(f, name).Payload)
	}
	for _, s := range []string{"", "\n", "data: \n\n", "data: [DONE]\n\n", "data: {}\n\n", "{}", "[]", "data: null\n\n", ": comment\n\n", "data: {\"candidates\":[{\"finishReason\":\"STOP\"}]}\n\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		p := testProvider("http://fuzz.invalid/v1", func(c *Config) {
			c.HTTPClient = &http.Client{Transport: streamtest.MemoryTransport{Payload: payload}}
			c.MaxRetries = -1
		})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		r := streamtest.Collect(p.Stream(ctx, simpleRequest()))
		if ctx.Err() != nil {
			t.Fatalf("stream did not end within the deadline: %v", ctx.Err())
		}
		if r.Done == 0 && r.Err == nil {
			t.Fatalf("stream ended with neither Done nor an error (%d events)", len(r.Events))
		}
		if r.Done > 1 || r.AfterDone != 0 {
			t.Fatalf("Done events %d, events after Done %d", r.Done, r.AfterDone)
		}
	})
}
