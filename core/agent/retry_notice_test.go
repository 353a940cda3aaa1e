package agent

import (
	"context"
	"strings"
	"testing"

	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
)

// TestProviderRetryIsANotice (new user r24 #3: a provider's retries were
// silent): a provider.EventRetry becomes a warning notice naming the
// provider, in the log every view and stream-json read, and nothing of it
// is kept in the assistant message.
func TestProviderRetryIsANotice(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{{Events: append([]provider.Event{
		{Type: provider.EventRetry, Text: "HTTP 500 upstream: retrying in 1s (attempt 2 of 4)"}},
		providertest.TextEvents("hello")...)}}}
	h := newHarness(t, prov, permission.ModeDefault)
	h.submit(context.Background(), "hi")
	var said []string
	for _, ev := range h.events() {
		if ev.Type == event.Notice {
			if d := mustDecode[event.NoticeData](t, ev); d.Source == "provider" && d.Level == "warning" {
				said = append(said, d.Message)
			}
		}
	}
	if len(said) != 1 || said[0] != "fake: HTTP 500 upstream: retrying in 1s (attempt 2 of 4)" {
		t.Errorf("provider notices %q, want the retry", said)
	}
	for _, m := range h.messages() {
		if strings.Contains(m.Text(), "retrying") {
			t.Errorf("the retry reached the transcript: %q", m.Text())
		}
	}
}
