package anthropic

import (
	"context"
	"strings"
	"testing"
	"time"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/streamtest"
)

// testName is the provider name of the test providers.
const testName = "testprov"

// testProvider returns a Provider for a test server with fast retries; edit adjusts
// the config.
func testProvider(url string, edit ...func(*Config)) *Provider {
	cfg := Config{HTTPConfig: provider.HTTPConfig{Name: testName, BaseURL: url, APIKey: "sk-ant-test", RetryBaseDelay: time.Millisecond}}
	for _, e := range edit {
		e(&cfg)
	}
	return New(cfg)
}

// simpleRequest is a one-message request.
func simpleRequest() provider.Request {
	return provider.Request{Model: "claude-test", Messages: []message.Message{message.NewText(message.RoleUser, "hi")}}
}

// run streams simpleRequest from p.
func run(t testing.TB, p *Provider) streamtest.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return streamtest.Collect(p.Stream(ctx, simpleRequest()))
}

// sse frames (type, data) pairs as Anthropic does: "event: <type>", "data: <json>",
// blank line.
func sse(pairs ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(pairs); i += 2 {
		b.WriteString("event: " + pairs[i] + "\ndata: " + pairs[i+1] + "\n\n")
	}
	return b.String()
}

// Events used by several tests.
const (
	msgStart   = `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-test","stop_reason":null,"usage":{"input_tokens":10,"output_tokens":1}}}`
	textStart  = `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`
	textDelta  = `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hello"}}`
	blockStop0 = `{"type":"content_block_stop","index":0}`
	endTurn    = `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}`
	msgStop    = `{"type":"message_stop"}`
)

// okStream is a complete stream answering "hello".
var okStream = sse("message_start", msgStart, "content_block_start", textStart,
	"content_block_delta", textDelta, "content_block_stop", blockStop0,
	"message_delta", endTurn, "message_stop", msgStop)
