package openai

import (
	"context"
	"iter"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"pincer/core/message"
	"pincer/core/provider"
)

// result is everything a stream yielded, folded the way the agent loop folds it.
type result struct {
	text, reasoning string
	signatures      []string
	calls           []message.Part
	usage           message.Usage // field-by-field merge of the usage events
	usageEvents     int
	done            int    // EventDone count
	finish          string // FinishReason of EventDone
	afterDone       int    // events (or errors) after EventDone: must be 0
	err             error
	events          []provider.Event
}

// collect ranges over a stream to its end.
func collect(seq iter.Seq2[provider.Event, error]) result {
	var r result
	for ev, err := range seq {
		if r.done > 0 {
			r.afterDone++
		}
		if err != nil {
			r.err = err
			continue
		}
		r.events = append(r.events, ev)
		switch ev.Type {
		case provider.EventTextDelta:
			r.text += ev.Text
		case provider.EventReasoningDelta:
			r.reasoning += ev.Text
			if ev.Signature != "" {
				r.signatures = append(r.signatures, ev.Signature)
			}
		case provider.EventToolCall:
			r.calls = append(r.calls, ev.ToolCall)
		case provider.EventUsage:
			r.usageEvents++
			mergeUsage(&r.usage, ev.Usage)
		case provider.EventDone:
			r.done++
			r.finish = ev.FinishReason
		}
	}
	return r
}

// mergeUsage applies provider.EventUsage's rule: later values replace earlier ones
// field by field when non-zero.
func mergeUsage(dst *message.Usage, u message.Usage) {
	set := func(d *int64, v int64) {
		if v != 0 {
			*d = v
		}
	}
	set(&dst.InputTokens, u.InputTokens)
	set(&dst.OutputTokens, u.OutputTokens)
	set(&dst.CacheReadTokens, u.CacheReadTokens)
	set(&dst.CacheWriteTokens, u.CacheWriteTokens)
	set(&dst.ReasoningTokens, u.ReasoningTokens)
	if u.CostUSD != nil {
		dst.CostUSD = u.CostUSD
	}
}

// sseServer serves payload, byte for byte, as an event stream to every request.
func sseServer(t testing.TB, payload []byte) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(payload)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// testProvider returns a Provider for a test server with fast retries; edit adjusts
// the config.
func testProvider(url string, edit ...func(*Config)) *Provider {
	cfg := Config{Name: "testprov", BaseURL: url, APIKey: "sk-test", RetryBaseDelay: time.Millisecond}
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
func run(t testing.TB, p *Provider) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return collect(p.Stream(ctx, simpleRequest()))
}

// events joins data payloads into an event stream, each as "data: x\n\n".
func events(datas ...string) []byte {
	var b strings.Builder
	for _, d := range datas {
		b.WriteString("data: " + d + "\n\n")
	}
	return []byte(b.String())
}

// f64 returns a pointer to v.
func f64(v float64) *float64 { return &v }
