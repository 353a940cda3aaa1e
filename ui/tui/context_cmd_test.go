package tui

import (
	"strings"
	"testing"

	"pincer/core/agent"
	"pincer/core/provider/providertest"
)

func TestContextText(t *testing.T) {
	for _, c := range []struct {
		use  agent.ContextUse
		want string
	}{
		{agent.ContextUse{Tokens: 12345, Window: 128000, Messages: 14, ToolTokens: 4100, Tools: 18}, "context ~12.3k of 128.0k tokens (9.6%): 14 messages ~8.2k, 18 tool definitions ~4.1k"},
		{agent.ContextUse{Tokens: 800, Messages: 1}, "context ~800 tokens (window unknown: no automatic compaction; context_window in config.toml's [models.\"ID\"] sets it): 1 message ~800"},
	} {
		if got := contextText(c.use); got != c.want {
			t.Errorf("%+v: %q, want %q", c.use, got, c.want)
		}
	}
}

// TestContextCommand: /context in the workbench answers on the notices line
// from the backend's estimate, without a model call (README lists it).
func TestContextCommand(t *testing.T) {
	prov := &providertest.Scripted{}
	b, _, _, _ := attached(t, 120, 40, prov)
	b.slash("/context")
	// Before the first call: the system prompt and the tools are counted
	// (new user r22: it said ~0 tokens, 0 messages).
	s := b.waitText("context ~", "1 message ~", "tool definitions ~")
	if strings.Contains(s, "context ~0 ") {
		t.Errorf("/context before the first call counts nothing:\n%s", s)
	}
	if prov.Calls() != 0 {
		t.Errorf("/context called the model %d times", prov.Calls())
	}
}
