package main

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"pincer/core/provider"
	"pincer/core/provider/openai"
)

// defaultModel is used when neither --model nor PINCER_MODEL is given.
const defaultModel = "openai/gpt-4.1"

// builtinProvider is a known OpenAI-compatible endpoint.
type builtinProvider struct {
	baseURL    string
	requireKey bool
}

// builtinProviders are the endpoints `--model NAME/...` knows without --base-url.
// A full provider configuration (config file, key store) is a later issue.
var builtinProviders = map[string]builtinProvider{
	"openai":     {"https://api.openai.com/v1", true},
	"deepseek":   {"https://api.deepseek.com/v1", true},
	"openrouter": {"https://openrouter.ai/api/v1", true},
	"groq":       {"https://api.groq.com/openai/v1", true},
	"mistral":    {"https://api.mistral.ai/v1", true},
	"ollama":     {"http://localhost:11434/v1", false},
	"lmstudio":   {"http://localhost:1234/v1", false},
}

// modelChoice is a resolved --model/--base-url pair.
type modelChoice struct {
	Provider string // "openai"
	Model    string // "gpt-4.1"
	BaseURL  string
	APIKey   string
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
	mc := modelChoice{Provider: prov, Model: name, BaseURL: baseURL}
	bp, known := builtinProviders[prov]
	if mc.BaseURL == "" {
		if !known {
			return modelChoice{}, usagef("unknown provider %q: pass --base-url URL for an OpenAI-compatible endpoint (known: openai, deepseek, openrouter, groq, mistral, ollama, lmstudio)", prov)
		}
		mc.BaseURL = bp.baseURL
	}
	for _, k := range []string{"PINCER_API_KEY", strings.ToUpper(prov) + "_API_KEY", "OPENAI_API_KEY"} {
		if v := getenv(k); v != "" {
			mc.APIKey = v
			break
		}
	}
	if mc.APIKey == "" && known && bp.requireKey && baseURL == "" {
		return modelChoice{}, fmt.Errorf("no API key for %s: set PINCER_API_KEY or %s_API_KEY", prov, strings.ToUpper(prov))
	}
	return mc, nil
}

// newProvider builds the Chat Completions provider for a choice.
func newProvider(mc modelChoice, stall time.Duration) provider.Provider {
	return openai.New(openai.Config{
		Name:         mc.Provider,
		BaseURL:      mc.BaseURL,
		APIKey:       mc.APIKey,
		StallTimeout: stall,
	})
}
