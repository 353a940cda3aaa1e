// Package registry is the one place that turns a wire API name and a connection
// configuration into a provider.Provider: one entry per adapter of core/provider
// (Chat Completions, Anthropic Messages, Gemini, Responses), plus the per-provider
// profiles that pincer applies on top of a configuration (DeepSeek's reasoning
// sent back, OpenRouter's attribution header).
//
// Contract: New and ListModels accept exactly the names of APIs (the empty name is
// "chat", as in the configuration); any other name is an error, never a silent
// fallback. Every adapter built here also lists its models (GET /models or the
// API's equivalent), so ListModels never fails for want of a lister.
package registry

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"pincer/core/provider"
	"pincer/core/provider/anthropic"
	"pincer/core/provider/gemini"
	"pincer/core/provider/openai"
	"pincer/core/provider/responses"
)

// Wire API names, as the configuration's providers.<name>.api spells them.
const (
	APIChat      = "chat"      // OpenAI Chat Completions and its compatibles (package openai)
	APIAnthropic = "anthropic" // Anthropic Messages (package anthropic)
	APIGemini    = "gemini"    // Gemini streamGenerateContent (package gemini)
	APIResponses = "responses" // OpenAI Responses (package responses)
)

// Lister is a provider that can list the models its endpoint serves: every adapter
// of the registry is one.
type Lister interface {
	provider.Provider
	// ListModels returns the model ids in the server's order; errors are
	// *provider.Error values (or ctx.Err()).
	ListModels(ctx context.Context) ([]string, error)
}

// adapters maps each wire API to the constructor of its adapter.
var adapters = map[string]func(provider.HTTPConfig) Lister{
	APIChat: func(cfg provider.HTTPConfig) Lister {
		return openai.New(openai.Config{HTTPConfig: withProfileHeaders(cfg),
			SendReasoning: cfg.Name == "deepseek"}) // its thinking-mode tool loops need their reasoning back
	},
	APIAnthropic: func(cfg provider.HTTPConfig) Lister { return anthropic.New(anthropic.Config{HTTPConfig: cfg}) },
	APIGemini:    func(cfg provider.HTTPConfig) Lister { return gemini.New(gemini.Config{HTTPConfig: cfg}) },
	APIResponses: func(cfg provider.HTTPConfig) Lister { return responses.New(responses.Config{HTTPConfig: cfg}) },
}

// APIs returns the wire API names the registry builds, sorted.
func APIs() []string { return slices.Sorted(maps.Keys(adapters)) }

// New builds the adapter of api for cfg (cfg.Name is the provider's name, as in
// "deepseek/deepseek-chat"). An unknown api is an error naming the known ones.
func New(api string, cfg provider.HTTPConfig) (Lister, error) {
	if api == "" {
		api = APIChat
	}
	build, ok := adapters[api]
	if !ok {
		return nil, fmt.Errorf("unknown wire API %q (known: %s)", api, strings.Join(APIs(), ", "))
	}
	return build(cfg), nil
}

// ListModels asks the endpoint of cfg, through the adapter of api, for its models
// (for `pincer model refresh`).
func ListModels(ctx context.Context, api string, cfg provider.HTTPConfig) ([]string, error) {
	l, err := New(api, cfg)
	if err != nil {
		return nil, err
	}
	return l.ListModels(ctx)
}

// profileHeaders are the extra headers a provider's profile sends on the Chat
// Completions API: OpenRouter's app attribution title, which its documentation asks
// of clients.
var profileHeaders = map[string]map[string]string{
	"openrouter": {"X-Title": "pincer"},
}

// withProfileHeaders returns cfg with the profile headers of cfg.Name added; headers
// cfg already sets win. cfg.Headers itself is never modified.
func withProfileHeaders(cfg provider.HTTPConfig) provider.HTTPConfig {
	extra := profileHeaders[cfg.Name]
	if len(extra) == 0 {
		return cfg
	}
	h := maps.Clone(extra)
	maps.Copy(h, cfg.Headers)
	cfg.Headers = h
	return cfg
}
