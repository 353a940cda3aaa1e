package config

import (
	"sort"
	"strings"

	"pincer/core/provider/catalog"
)

// Wire APIs a provider can speak.
const (
	APIChat      = "chat"      // OpenAI Chat Completions and its compatibles
	APIAnthropic = "anthropic" // Anthropic Messages
	APIGemini    = "gemini"    // Gemini streamGenerateContent
	APIResponses = "responses" // OpenAI Responses
)

// APIs lists the wire APIs, for prompts.
var APIs = []string{APIChat, APIAnthropic, APIGemini, APIResponses}

// Provider kinds.
const (
	KindBuiltin = "builtin"
	KindCustom  = "custom"
)

// builtin is the built-in layer's entry for one provider.
type builtin struct {
	baseURL    string
	api        string
	requireKey bool
	model      string
	models     []string // besides the catalog's
	keyEnv     []string
}

// builtins are the providers pincer knows without configuration. Their model lists
// are joined with the catalog's (core/provider/catalog) at load time. Local servers
// (Ollama, LM Studio) have no model until `pincer model refresh` asks them.
var builtins = map[string]builtin{
	"openai":           {"https://api.openai.com/v1", APIChat, true, "gpt-4.1", nil, []string{"OPENAI_API_KEY"}},
	"openai-responses": {"https://api.openai.com/v1", APIResponses, true, "gpt-5", nil, []string{"OPENAI_API_KEY"}},
	"anthropic":        {"https://api.anthropic.com", APIAnthropic, true, "claude-sonnet-4-5", nil, []string{"ANTHROPIC_API_KEY"}},
	"gemini":           {"https://generativelanguage.googleapis.com/v1beta", APIGemini, true, "gemini-2.5-pro", nil, []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"}},
	"deepseek":         {"https://api.deepseek.com/v1", APIChat, true, "deepseek-chat", nil, []string{"DEEPSEEK_API_KEY"}},
	"openrouter": {"https://openrouter.ai/api/v1", APIChat, true, "anthropic/claude-sonnet-4.5",
		[]string{"anthropic/claude-sonnet-4.5", "openai/gpt-4.1", "deepseek/deepseek-chat"}, []string{"OPENROUTER_API_KEY"}},
	"groq": {"https://api.groq.com/openai/v1", APIChat, true, "llama-3.3-70b-versatile",
		[]string{"llama-3.3-70b-versatile"}, []string{"GROQ_API_KEY"}},
	"mistral": {"https://api.mistral.ai/v1", APIChat, true, "mistral-large-latest",
		[]string{"mistral-large-latest", "codestral-latest", "mistral-small-latest"}, []string{"MISTRAL_API_KEY"}},
	"ollama":   {"http://127.0.0.1:11434/v1", APIChat, false, "", nil, nil},
	"lmstudio": {"http://127.0.0.1:1234/v1", APIChat, false, "", nil, nil},
}

// catalogAliases map a built-in provider to the catalog entry of its models.
var catalogAliases = map[string]string{"openai-responses": "openai"}

// IsBuiltin reports whether name is a built-in provider.
func IsBuiltin(name string) bool { _, ok := builtins[name]; return ok }

// BuiltinNames lists the built-in providers, sorted.
func BuiltinNames() []string {
	out := make([]string, 0, len(builtins))
	for n := range builtins {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// BuiltinKeyEnv lists, sorted and once each, the environment variables the
// built-in providers read their API keys from, PINCER_API_KEY first (every
// provider reads it): what `pincer doctor` looks for.
func BuiltinKeyEnv() []string {
	seen := map[string]bool{}
	var out []string
	for _, b := range builtins {
		for _, k := range b.keyEnv {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return append([]string{"PINCER_API_KEY"}, out...)
}

// KeyEnv lists the environment variables a provider's API key is read from (after
// PINCER_API_KEY): the built-in ones, else NAME_API_KEY in upper case with '-' as
// '_' ("my-vllm" → MY_VLLM_API_KEY).
func KeyEnv(name string) []string {
	if b, ok := builtins[name]; ok && len(b.keyEnv) > 0 {
		return append([]string(nil), b.keyEnv...)
	}
	return []string{strings.ToUpper(strings.ReplaceAll(name, "-", "_")) + "_API_KEY"}
}

// catalogModels returns the catalog's model IDs for a provider.
func catalogModels(name string) []string {
	if a, ok := catalogAliases[name]; ok {
		name = a
	}
	var out []string
	for _, m := range catalog.Models(name) {
		out = append(out, m.ID)
	}
	return out
}

// defaultsLayer is the lowest layer: every built-in provider as a config map.
func defaultsLayer() map[string]any {
	provs := map[string]any{}
	for name, b := range builtins {
		models := union(nil, b.models)
		if b.model != "" {
			models = union([]string{b.model}, models)
		}
		provs[name] = map[string]any{
			"kind": KindBuiltin, "base_url": b.baseURL, "api": b.api,
			"requires_api_key": b.requireKey, "model": b.model, "models": toAny(models),
		}
	}
	return map[string]any{"providers": provs}
}

// union appends the names of add missing from base, keeping order.
func union(base, add []string) []string {
	seen := map[string]bool{}
	out := make([]string, 0, len(base)+len(add))
	for _, list := range [][]string{base, add} {
		for _, s := range list {
			if s = strings.TrimSpace(s); s != "" && !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// toAny converts a string list to the []any a parsed file holds.
func toAny(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}
