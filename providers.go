package main

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"pincer/core/provider"
	"pincer/core/provider/anthropic"
	"pincer/core/provider/gemini"
	"pincer/core/provider/openai"
	"pincer/core/provider/responses"
)

// defaultModel is used when neither --model nor PINCER_MODEL is given.
const defaultModel = "openai/gpt-4.1"

// builtinProvider is a known endpoint and the wire API it speaks.
type builtinProvider struct {
	baseURL    string
	requireKey bool
	api        string // "chat" (Chat Completions), "anthropic", "gemini", "responses"
}

// builtinProviders are the endpoints `--model NAME/...` knows without --base-url.
// A full provider configuration (config file, key store) is a later issue.
var builtinProviders = map[string]builtinProvider{
	"openai":           {"https://api.openai.com/v1", true, "chat"},
	"openai-responses": {"https://api.openai.com/v1", true, "responses"},
	"anthropic":        {"https://api.anthropic.com", true, "anthropic"},
	"gemini":           {"https://generativelanguage.googleapis.com/v1beta", true, "gemini"},
	"deepseek":         {"https://api.deepseek.com/v1", true, "chat"},
	"openrouter":       {"https://openrouter.ai/api/v1", true, "chat"},
	"groq":             {"https://api.groq.com/openai/v1", true, "chat"},
	"mistral":          {"https://api.mistral.ai/v1", true, "chat"},
	"ollama":           {"http://localhost:11434/v1", false, "chat"},
	"lmstudio":         {"http://localhost:1234/v1", false, "chat"},
}

// keyVars are the environment variables a provider's key is read from, after
// PINCER_API_KEY.
func keyVars(prov string) []string {
	switch prov {
	case "openai-responses":
		return []string{"OPENAI_API_KEY"}
	case "gemini":
		return []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"}
	case "anthropic":
		return []string{"ANTHROPIC_API_KEY"}
	}
	return []string{strings.ToUpper(prov) + "_API_KEY", "OPENAI_API_KEY"}
}

// modelChoice is a resolved --model/--base-url pair.
type modelChoice struct {
	Provider string // "openai"
	Model    string // "gpt-4.1"
	BaseURL  string
	APIKey   string
	API      string // the wire API: "chat", "anthropic", "gemini", "responses"
}

// ID is PROVIDER/MODEL.
func (m modelChoice) ID() string { return m.Provider + "/" + m.Model }

// resolveModel turns --model and --base-url into a provider choice. The API key comes
// from PINCER_API_KEY, then <PROVIDER>_API_KEY (OPENAI_API_KEY for openai), then
// OPENAI_API_KEY for any other OpenAI-compatible endpoint.
func resolveModel(model, baseURL string, getenv func(string) string) (modelChoice, error) {
	if model == "" {
		model = getenv("PINCER_MODEL")
	}
	if model == "" {
		model = defaultModel
	}
	prov, name, ok := strings.Cut(model, "/")
	if !ok || prov == "" || name == "" {
		return modelChoice{}, usagef("--model must be PROVIDER/MODEL (for example openai/gpt-4.1), got %q", model)
	}
	if baseURL != "" {
		u, err := url.Parse(baseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return modelChoice{}, usagef("--base-url must be an http(s) URL such as http://localhost:8000/v1, got %q", baseURL)
		}
	}
	mc := modelChoice{Provider: prov, Model: name, BaseURL: baseURL, API: "chat"}
	bp, known := builtinProviders[prov]
	if known {
		mc.API = bp.api
	}
	if mc.BaseURL == "" {
		if !known {
			return modelChoice{}, usagef("unknown provider %q: pass --base-url URL for an OpenAI-compatible endpoint (known: %s)", prov, knownProviders())
		}
		mc.BaseURL = bp.baseURL
	}
	for _, k := range append([]string{"PINCER_API_KEY"}, keyVars(prov)...) {
		if v := getenv(k); v != "" {
			mc.APIKey = v
			break
		}
	}
	if mc.APIKey == "" && known && bp.requireKey && baseURL == "" {
		return modelChoice{}, fmt.Errorf("no API key for %s: set PINCER_API_KEY or %s", prov, keyVars(prov)[0])
	}
	return mc, nil
}

// newProvider builds the provider for a choice, by its wire API.
func newProvider(mc modelChoice, stall time.Duration) provider.Provider {
	switch mc.API {
	case "anthropic":
		return anthropic.New(anthropic.Config{Name: mc.Provider, BaseURL: mc.BaseURL, APIKey: mc.APIKey, StallTimeout: stall})
	case "gemini":
		return gemini.New(gemini.Config{Name: mc.Provider, BaseURL: mc.BaseURL, APIKey: mc.APIKey, StallTimeout: stall})
	case "responses":
		return responses.New(responses.Config{Name: mc.Provider, BaseURL: mc.BaseURL, APIKey: mc.APIKey, StallTimeout: stall})
	}
	return openai.New(openai.Config{Name: mc.Provider, BaseURL: mc.BaseURL, APIKey: mc.APIKey, StallTimeout: stall})
}

// knownProviders lists the built-in provider names, sorted.
func knownProviders() string {
	names := make([]string, 0, len(builtinProviders))
	for n := range builtinProviders {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
