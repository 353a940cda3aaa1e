package catalog

import (
	"math"
	"testing"

	"pincer/core/message"
)

func TestLookup(t *testing.T) {
	cases := []struct {
		prov, id string
		want     string
		ok       bool
	}{
		{"openai", "gpt-4.1", "gpt-4.1", true},
		{"openai", "gpt-4.1-2025-04-14", "gpt-4.1", true},
		{"openai", "gpt-4.1-mini", "gpt-4.1-mini", true},
		{"openai", "gpt-4.1-mini-2025-04-14", "gpt-4.1-mini", true},
		{"openai-responses", "gpt-5", "gpt-5", true},
		{"anthropic", "claude-sonnet-4-5-20250929", "claude-sonnet-4-5", true},
		{"openrouter", "anthropic/claude-haiku-4-5", "claude-haiku-4-5", true},
		{"openai", "gpt-4.10", "", false},
		{"ollama", "qwen2.5-coder", "", false},
	}
	for _, c := range cases {
		m, ok := Lookup(c.prov, c.id)
		if ok != c.ok || m.ID != c.want {
			t.Errorf("Lookup(%s, %s) = %q %v, want %q %v", c.prov, c.id, m.ID, ok, c.want, c.ok)
		}
	}
}

func TestCost(t *testing.T) {
	m, _ := Lookup("openai", "gpt-4.1") // $2 in, $8 out, $0.50 cached
	u := message.Usage{InputTokens: 1_000_000, CacheReadTokens: 400_000, OutputTokens: 100_000}
	got := *m.Cost(u, true) // 600k*2 + 400k*0.5 + 100k*8 = 1.2 + 0.2 + 0.8
	if math.Abs(got-2.2) > 1e-9 {
		t.Errorf("openai cost = %v, want 2.2", got)
	}
	a, _ := Lookup("anthropic", "claude-sonnet-4-5") // $3 in, $15 out, 0.30 read, 3.75 write
	u = message.Usage{InputTokens: 100_000, CacheReadTokens: 1_000_000, CacheWriteTokens: 100_000, OutputTokens: 10_000}
	got = *a.Cost(u, false) // 0.3 + 0.3 + 0.375 + 0.15
	if math.Abs(got-1.125) > 1e-9 {
		t.Errorf("anthropic cost = %v, want 1.125", got)
	}
	if (Model{ID: "x"}).Cost(u, true) != nil {
		t.Error("an unpriced model has a cost")
	}
}
