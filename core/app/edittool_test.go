package app

import (
	"testing"

	"pincer/core/config"
)

// TestEditToolOf: the edit tools follow the model ID whatever the provider
// name (custom/, azure, openrouter's vendor/ID), then a [models] setting wins.
func TestEditToolOf(t *testing.T) {
	tables := map[string]config.ModelSettings{
		"openai/gpt-5":  {EditTool: config.EditToolEdit},
		"qwen3-coder":   {EditTool: config.EditToolApplyPatch},
		"ollama/llama3": {Protocol: config.ProtocolTools},
	}
	for _, c := range []struct {
		tables   map[string]config.ModelSettings
		provider string
		model    string
		want     string
	}{
		{nil, "openai", "gpt-5", config.EditToolApplyPatch},
		{nil, "openai", "gpt-5-mini-2025-08-07", config.EditToolApplyPatch},
		{nil, "openai", "gpt-5-codex", config.EditToolApplyPatch},
		{nil, "openrouter", "openai/gpt-5", config.EditToolApplyPatch},
		{nil, "openai", "codex-mini-latest", config.EditToolApplyPatch},
		{nil, "custom", "gpt-5", config.EditToolApplyPatch}, // --model custom/gpt-5 --base-url ... (issue 17)
		{nil, "custom", "GPT-5-mini", config.EditToolApplyPatch},
		{nil, "azure", "gpt-5-2025-08-07", config.EditToolApplyPatch},
		{nil, "openrouter", "openai/gpt-5-nano", config.EditToolApplyPatch},
		{nil, "custom", "my-codex-mini", config.EditToolApplyPatch},
		{nil, "custom", "gpt-4.1", config.EditToolEdit},
		{nil, "custom", "gpt-50x", config.EditToolEdit}, // not a snapshot of gpt-5
		{nil, "openrouter", "anthropic/claude-sonnet-4-5", config.EditToolEdit},
		{nil, "custom", "llama3", config.EditToolEdit},
		{nil, "openai", "gpt-4.1", config.EditToolEdit},
		{nil, "anthropic", "claude-sonnet-4-5", config.EditToolEdit},
		{tables, "openai", "gpt-5", config.EditToolEdit},
		{tables, "openrouter", "qwen3-coder", config.EditToolApplyPatch},
		{tables, "ollama", "llama3", config.EditToolEdit},
	} {
		if got := editToolOf(c.tables, ModelChoice{Provider: c.provider, Model: c.model}); got != c.want {
			t.Errorf("%s/%s: %q, want %q", c.provider, c.model, got, c.want)
		}
	}
}
