// Package catalog knows the common models of the built-in providers: their context
// window, maximum output and prices, so that pincer can compact before a provider
// refuses and show what a session costs. A model it does not know has an unknown
// window (automatic compaction off) and unknown prices (cost shown as unknown, never
// as zero).
//
// Prices are USD per million tokens as the providers published them for standard
// (non-batch) use in late 2025; they change, so treat costs as estimates.
package catalog

import (
	"sort"
	"strings"

	"pincer/core/message"
)

// Model describes one model. Prices are USD per million tokens; a zero price with
// Priced false means unknown.
type Model struct {
	ID              string // the model ID as sent to the provider
	ContextWindow   int64  // tokens
	MaxOutput       int64  // tokens
	Priced          bool
	Input, Output   float64
	CacheRead       float64
	CacheWrite      float64
	Reasoning, Tool bool
	// EditTool is the file-editing tool set the model was trained on:
	// EditToolApplyPatch (Codex's apply_patch instead of Edit, MultiEdit and
	// Write: GPT-5 and codex models), or "" for Claude Code's Edit tools.
	EditTool string
}

// EditToolApplyPatch is Model.EditTool for the models trained on Codex's
// apply_patch.
const EditToolApplyPatch = "apply_patch"

// EditToolFor returns the edit tool set of a model, decided on the model ID
// whatever the provider serving it (openai, custom/ with --base-url, azure,
// openrouter's "openai/gpt-5", ...): its catalog entry's EditTool, else that of
// the catalog model of any provider the bare ID (after the last "/") is, or is
// a dated snapshot of (the longest such ID), else EditToolApplyPatch for any
// model whose ID names codex ("gpt-5-codex", "codex-mini-latest", a vendor's
// "openai/...-codex"), else "".
func EditToolFor(providerName, id string) string {
	if m, ok := Lookup(providerName, id); ok && m.EditTool != "" {
		return m.EditTool
	}
	if m, ok := lookupAnyProvider(id); ok && m.EditTool != "" {
		return m.EditTool
	}
	if strings.Contains(strings.ToLower(id), "codex") {
		return EditToolApplyPatch
	}
	return ""
}

// lookupAnyProvider is Lookup of the bare model ID (after the last "/",
// lower-cased) in every provider's table: the longest catalog ID it matches.
func lookupAnyProvider(id string) (Model, bool) {
	bare := strings.ToLower(id[strings.LastIndex(id, "/")+1:])
	var best Model
	found := false
	for _, ms := range models {
		for _, m := range ms {
			if (bare == m.ID || strings.HasPrefix(bare, m.ID+"-")) && len(m.ID) > len(best.ID) {
				best, found = m, true
			}
		}
	}
	return best, found
}

// models lists the known models by provider. Lookup matches the longest ID that is
// a prefix of the requested one, so dated snapshots ("gpt-4.1-2025-04-14") match.
var models = map[string][]Model{
	"openai": {
		{ID: "gpt-5", ContextWindow: 400000, MaxOutput: 128000, Priced: true, Input: 1.25, Output: 10, CacheRead: 0.125, Reasoning: true, Tool: true, EditTool: EditToolApplyPatch},
		{ID: "gpt-5-mini", ContextWindow: 400000, MaxOutput: 128000, Priced: true, Input: 0.25, Output: 2, CacheRead: 0.025, Reasoning: true, Tool: true, EditTool: EditToolApplyPatch},
		{ID: "gpt-5-nano", ContextWindow: 400000, MaxOutput: 128000, Priced: true, Input: 0.05, Output: 0.40, CacheRead: 0.005, Reasoning: true, Tool: true, EditTool: EditToolApplyPatch},
		{ID: "gpt-4.1", ContextWindow: 1047576, MaxOutput: 32768, Priced: true, Input: 2, Output: 8, CacheRead: 0.5, Tool: true},
		{ID: "gpt-4.1-mini", ContextWindow: 1047576, MaxOutput: 32768, Priced: true, Input: 0.4, Output: 1.6, CacheRead: 0.1, Tool: true},
		{ID: "gpt-4.1-nano", ContextWindow: 1047576, MaxOutput: 32768, Priced: true, Input: 0.1, Output: 0.4, CacheRead: 0.025, Tool: true},
		{ID: "gpt-4o", ContextWindow: 128000, MaxOutput: 16384, Priced: true, Input: 2.5, Output: 10, CacheRead: 1.25, Tool: true},
		{ID: "gpt-4o-mini", ContextWindow: 128000, MaxOutput: 16384, Priced: true, Input: 0.15, Output: 0.6, CacheRead: 0.075, Tool: true},
		{ID: "o3", ContextWindow: 200000, MaxOutput: 100000, Priced: true, Input: 2, Output: 8, CacheRead: 0.5, Reasoning: true, Tool: true},
		{ID: "o4-mini", ContextWindow: 200000, MaxOutput: 100000, Priced: true, Input: 1.1, Output: 4.4, CacheRead: 0.275, Reasoning: true, Tool: true},
	},
	"anthropic": {
		{ID: "claude-opus-4-1", ContextWindow: 200000, MaxOutput: 32000, Priced: true, Input: 15, Output: 75, CacheRead: 1.5, CacheWrite: 18.75, Reasoning: true, Tool: true},
		{ID: "claude-opus-4", ContextWindow: 200000, MaxOutput: 32000, Priced: true, Input: 15, Output: 75, CacheRead: 1.5, CacheWrite: 18.75, Reasoning: true, Tool: true},
		{ID: "claude-sonnet-4-5", ContextWindow: 200000, MaxOutput: 64000, Priced: true, Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75, Reasoning: true, Tool: true},
		{ID: "claude-sonnet-4", ContextWindow: 200000, MaxOutput: 64000, Priced: true, Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75, Reasoning: true, Tool: true},
		{ID: "claude-haiku-4-5", ContextWindow: 200000, MaxOutput: 64000, Priced: true, Input: 1, Output: 5, CacheRead: 0.1, CacheWrite: 1.25, Reasoning: true, Tool: true},
		{ID: "claude-3-5-haiku", ContextWindow: 200000, MaxOutput: 8192, Priced: true, Input: 0.8, Output: 4, CacheRead: 0.08, CacheWrite: 1, Tool: true},
	},
	"gemini": {
		{ID: "gemini-2.5-pro", ContextWindow: 1048576, MaxOutput: 65536, Priced: true, Input: 1.25, Output: 10, CacheRead: 0.31, Reasoning: true, Tool: true},
		{ID: "gemini-2.5-flash", ContextWindow: 1048576, MaxOutput: 65536, Priced: true, Input: 0.3, Output: 2.5, CacheRead: 0.075, Reasoning: true, Tool: true},
		{ID: "gemini-2.5-flash-lite", ContextWindow: 1048576, MaxOutput: 65536, Priced: true, Input: 0.1, Output: 0.4, CacheRead: 0.025, Reasoning: true, Tool: true},
	},
	"deepseek": {
		{ID: "deepseek-chat", ContextWindow: 128000, MaxOutput: 8192, Priced: true, Input: 0.28, Output: 0.42, CacheRead: 0.028, Tool: true},
		{ID: "deepseek-reasoner", ContextWindow: 128000, MaxOutput: 65536, Priced: true, Input: 0.28, Output: 0.42, CacheRead: 0.028, Reasoning: true, Tool: true},
	},
}

// aliases map provider names that serve another provider's models.
var aliases = map[string]string{"openai-responses": "openai"}

// Lookup returns the model provider/id, matching the longest known ID that prefixes
// id (so "gpt-4.1-2025-04-14" is gpt-4.1, and "gpt-4.1-mini" is not gpt-4.1). For
// OpenRouter-style IDs ("anthropic/claude-sonnet-4-5") the vendor part is used.
func Lookup(providerName, id string) (Model, bool) {
	if a, ok := aliases[providerName]; ok {
		providerName = a
	}
	if vendor, rest, ok := strings.Cut(id, "/"); ok {
		if m, found := Lookup(vendor, rest); found {
			return m, true
		}
	}
	var best Model
	found := false
	for _, m := range models[providerName] {
		if (id == m.ID || strings.HasPrefix(id, m.ID+"-")) && len(m.ID) > len(best.ID) {
			best, found = m, true
		}
	}
	return best, found
}

// Models returns the known models of a provider, sorted by ID.
func Models(providerName string) []Model {
	out := append([]Model(nil), models[providerName]...)
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Cost prices u in USD; nil when the model's prices are unknown. inputIncludesCache
// says whether u.InputTokens already counts cached tokens (Chat Completions,
// Responses, Gemini) or not (Anthropic, whose cache reads and writes are separate).
func (m Model) Cost(u message.Usage, inputIncludesCache bool) *float64 {
	if !m.Priced {
		return nil
	}
	uncached := u.InputTokens
	if inputIncludesCache {
		uncached -= u.CacheReadTokens + u.CacheWriteTokens
		if uncached < 0 {
			uncached = 0
		}
	}
	cacheWrite := m.CacheWrite
	if cacheWrite == 0 {
		cacheWrite = m.Input
	}
	c := (float64(uncached)*m.Input + float64(u.OutputTokens)*m.Output +
		float64(u.CacheReadTokens)*m.CacheRead + float64(u.CacheWriteTokens)*cacheWrite) / 1e6
	return &c
}
