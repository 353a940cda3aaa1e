package subagent

import (
	"testing"

	"pincer/core/provider/catalog"
)

func TestResolveModel(t *testing.T) {
	cases := []struct {
		want, parent, got string
		note              bool
	}{
		{"", "gpt-4.1", "", false},
		{"inherit", "claude-sonnet-4-5", "", false},
		{"haiku", "claude-sonnet-4-5", "claude-haiku-4-5", false},
		{"Opus", "claude-haiku-4-5", "claude-opus-4-1", false},
		{"sonnet", "anthropic/claude-opus-4-1", "anthropic/claude-sonnet-4-5", false},
		{"sonnet", "gpt-4.1", "", true},
		{"haiku", "deepseek/deepseek-chat", "", true},
		{"gpt-4.1-mini", "gpt-4.1", "gpt-4.1-mini", false},
	}
	for _, c := range cases {
		got, note := ResolveModel(c.want, c.parent)
		if got != c.got || (note != "") != c.note {
			t.Errorf("ResolveModel(%q, %q) = %q, %q; want %q, note %v", c.want, c.parent, got, note, c.got, c.note)
		}
	}
}

// TestAliasesAreKnownModels: each alias names a model the catalog prices.
func TestAliasesAreKnownModels(t *testing.T) {
	for alias, id := range modelAliases {
		if m, ok := catalog.Lookup("anthropic", id); !ok || m.ID != id {
			t.Errorf("alias %s -> %s: not in the catalog", alias, id)
		}
	}
}
