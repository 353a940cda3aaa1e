package responses

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
	cfg := Config{HTTPConfig: provider.HTTPConfig{Name: testName, BaseURL: url, APIKey: "sk-test", RetryBaseDelay: time.Millisecond}}
	for _, e := range edit {
		e(&cfg)
	}
	return New(cfg)
}

// simpleRequest is a one-message request.
func simpleRequest() provider.Request {
	return provider.Request{Model: "gpt-test", Messages: []message.Message{message.NewText(message.RoleUser, "hi")}}
}

// run streams simpleRequest from p.
func run(t testing.TB, p *Provider) streamtest.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return streamtest.Collect(p.Stream(ctx, simpleRequest()))
}

// events frames JSON events as the Responses API does: "event: <type>" (read from the
// JSON's "type"), "data: <json>", blank line.
func events(datas ...string) string {
	var b strings.Builder
	for _, d := range datas {
		typ := d[strings.Index(d, `"type":"`)+8:]
		typ = typ[:strings.IndexByte(typ, '"')]
		b.WriteString("event: " + typ + "\ndata: " + d + "\n\n")
	}
	return b.String()
}

// Events used by several tests.
const (
	textDelta = `{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"hello"}`
	completed = `{"type":"response.completed","response":{"id":"resp_1","status":"completed","usage":{"input_tokens":12,"input_tokens_details":{"cached_tokens":8},"output_tokens":30,"output_tokens_details":{"reasoning_tokens":20},"total_tokens":42}}}`
)

// okStream is a complete stream answering "hello".
var okStream = events(textDelta, completed)
