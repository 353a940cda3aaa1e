package openai

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
	return provider.Request{Model: "m", Messages: []message.Message{message.NewText(message.RoleUser, "hi")}}
}

// run streams simpleRequest from p.
func run(t testing.TB, p *Provider) streamtest.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return streamtest.Collect(p.Stream(ctx, simpleRequest()))
}

// events joins data payloads into an event stream, each as "data: x\n\n".
func events(datas ...string) string {
	var b strings.Builder
	for _, d := range datas {
		b.WriteString("data: " + d + "\n\n")
	}
	return b.String()
}

// f64 returns a pointer to v.
func f64(v float64) *float64 { return &v }
