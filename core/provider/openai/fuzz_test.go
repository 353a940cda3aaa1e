package openai

import (
	"context"
	"net/http"
	"testing"
	"time"

	"pincer/core/provider/internal/streamcase"
	"pincer/core/provider/internal/streamtest"
)

// FuzzChatStream, seeded with the package's fixtures and (when shared/ is there) the
// captures, serves arbitrary bytes as a 200 event-stream body through Stream (network
// replaced by an in-memory transport, no retries): the decoder must never panic or
// hang, and the stream must end with exactly one Done event or an error, nothing after
// Done.
func FuzzChatStream(f *testing.F) {
	for _, name := range []string{"01-openai-chat-text-usage-chunk.txt", "02-openai-chat-single-tool-split-args.txt", "03-openai-chat-parallel-tools.txt", "04-openai-chat-legacy-function-call.txt", "07-deepseek-reasoner-reasoning-content.txt", "08-deepseek-reasoner-tool-call.txt", "09-deepseek-v4-proxy-parallel-tools-reasoning.txt", "10-openrouter-comments-parallel-tools-dup-finish.txt", "11-openrouter-reasoning-details.txt", "12-openrouter-midstream-error-chunk.txt", "13-zai-glm-whole-args-no-finish-key.txt", "14-mistral-tool-call-no-index.txt", "15-mistral-magistral-content-array-thinking.txt", "16-groq-tool-call-x-groq-usage.txt", "17-groq-reasoning-channel-midstream-error-event.txt", "18-ollama-parallel-tools-all-in-one.txt", "19-vllm-crusoe-usage-chunk.txt", "20-vllm-reasoning-content.txt", "21-llamacpp-timings-length.txt"} {
		if c, ok := streamcase.Optional(f, name); ok {
			f.Add(c.Payload)
		}
	}
	for _, name := range streamcase.Fixtures(f, ".txt") {
		f.Add(streamcase.Fixture(f, name).Payload)
	}
	for _, s := range []string{"", "\n", "data: \n\n", "data: [DONE]\n\n", "data: {}\n\n", "{}", "[]", "data: null\n\n", ": comment\n\n"} {
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
