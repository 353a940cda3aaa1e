package gemini

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
	cfg := Config{HTTPConfig: provider.HTTPConfig{Name: testName, BaseURL: url, APIKey: "gm-test", RetryBaseDelay: time.Millisecond}}
	for _, e := range edit {
		e(&cfg)
	}
	return New(cfg)
}

// simpleRequest is a one-message request.
func simpleRequest() provider.Request {
	return provider.Request{Model: "gemini-test", Messages: []message.Message{message.NewText(message.RoleUser, "hi")}}
}

// run streams simpleRequest from p.
func run(t testing.TB, p *Provider) streamtest.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return streamtest.Collect(p.Stream(ctx, simpleRequest()))
}

// chunks frames JSON chunks as Gemini does: "data: <json>", CRLF, blank CRLF line.
func chunks(datas ...string) string {
	var b strings.Builder
	for _, d := range datas {
		b.WriteString("data: " + d + "\r\n\r\n")
	}
	return b.String()
}

// Chunks used by several tests.
const (
	helloChunk = `{"candidates":[{"content":{"role":"model","parts":[{"text":"hello"}]}}],"responseId":"r1"}`
	stopChunk  = `{"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":1,"totalTokenCount":6},"responseId":"r1"}`
)

// okStream is a complete stream answering "hello".
var okStream = chunks(helloChunk, stopChunk)
