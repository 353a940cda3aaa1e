// Package anthropic is pincer's adapter for the Anthropic Messages streaming API,
// built on the official Go SDK (github.com/anthropics/anthropic-sdk-go, v1 line).
//
// The SDK builds and sends the request and decodes the event stream into typed
// events; this package owns everything pincer promises on top of it, next to the
// captures in shared/cases/streams (25-29, 31-33) that the tests replay byte for byte:
//   - Text and thinking deltas are yielded as they arrive; a thinking block's
//     signature (signature_delta) is yielded as a reasoning event carrying Signature,
//     so the assistant message keeps it and the next request sends the block back
//     unchanged (Anthropic rejects a tool loop whose thinking blocks were altered).
//   - Tool calls are yielded whole, in block order, once the stop reason is known
//     (message_delta): their input is the concatenation of the input_json_delta
//     fragments, "{}" for a tool without arguments. Under stop reason "max_tokens" a
//     call whose JSON is incomplete is marked Truncated.
//   - One usage event per stream, at message_delta: input_tokens (which excludes cache
//     reads and writes, per Anthropic) as InputTokens, cache_read_input_tokens as
//     CacheReadTokens, cache_creation_input_tokens as CacheWriteTokens, the final
//     output_tokens (message_delta is cumulative) as OutputTokens.
//   - EventDone is last and carries stop_reason as sent ("end_turn", "tool_use",
//     "max_tokens", ...). A stream that ends without message_stop is an error.
//   - Errors are *provider.Error values with one-line messages: HTTP errors by status
//     (400 "prompt is too long" is KindContextLength, 401 KindAuth, 429 KindRateLimit,
//     529 and 5xx KindServer), a mid-stream "event: error" by its type
//     (overloaded_error is KindServer). HTTP 429, 5xx, overloaded and connection
//     failures are retried with backoff while nothing was yielded, honouring
//     retry-after and, without it, the anthropic-ratelimit-*-reset headers. The SDK's
//     own retries are off, so the rules match the other adapters.
//   - A stream that delivers no byte for StallTimeout fails with KindStream; ctx
//     ending yields ctx.Err().
//
// Prompt caching: the system prompt is sent as ordered text blocks, split at the line
// DynamicMarker; the static part carries a cache_control breakpoint, the dynamic part
// none. The last tool definition and the newest tool_result block carry one each
// (three breakpoints at most; Anthropic allows four).
package anthropic

import (
	"context"
	"iter"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"pincer/core/provider"
	"pincer/core/provider/internal/wire"
)

// Defaults for the zero values of Config.
const (
	// DefaultBaseURL is Anthropic's API root (requests go to BaseURL+"/v1/messages").
	DefaultBaseURL = "https://api.anthropic.com"
	// DefaultName is the provider name used when Config.Name is empty.
	DefaultName = "anthropic"
	// DefaultMaxTokens is max_tokens when neither the request nor Config sets it
	// (Anthropic requires the field).
	DefaultMaxTokens = 8192
)

// DynamicMarker is the line that separates the static part of a system prompt
// (cached) from its dynamic part (not cached). The prompt package emits it; without
// it the whole system prompt is one cached block.
const DynamicMarker = wire.DynamicMarker

// Authentication header styles for Config.AuthHeader.
const (
	// AuthAPIKey sends the key as "X-Api-Key: <key>" (Anthropic's own API and most
	// Anthropic-compatible proxies).
	AuthAPIKey = "x-api-key"
	// AuthBearer sends the key as "Authorization: Bearer <key>" (OAuth tokens, some
	// gateways).
	AuthBearer = "bearer"
)

// Config configures a Provider. The zero value talks to api.anthropic.com with no key.
// Of the connection fields: BaseURL is the API root without "/v1" (as
// ANTHROPIC_BASE_URL; a trailing "/v1" or slash is tolerated and removed; default
// https://api.anthropic.com); APIKey is sent in the header AuthHeader names, and the
// SDK's own environment look-ups (ANTHROPIC_API_KEY, profiles) are never used;
// MaxRetries also covers HTTP 529 and an overloaded stream.
type Config struct {
	provider.HTTPConfig
	// AuthHeader is AuthAPIKey (default) or AuthBearer.
	AuthHeader string
	// MaxTokens is max_tokens when the request does not set one; zero means 8192.
	MaxTokens int
	// ThinkingBudget enables extended thinking: > 0 sends thinking {type: enabled,
	// budget_tokens} (Anthropic's minimum is 1024; max_tokens is raised above the
	// budget when needed); -1 sends thinking {type: adaptive} (newer models decide
	// the budget); 0 sends no thinking setting.
	ThinkingBudget int
}

// Provider streams messages from one Anthropic-compatible endpoint. It is safe for
// concurrent use.
type Provider struct {
	// conn holds the name, key, retry policy and stall guard; the SDK client sends
	// the requests.
	conn      wire.Conn
	client    anthropic.Client
	maxTokens int
	thinking  int
}

var _ provider.Provider = (*Provider)(nil)

// New returns a Provider for cfg, filling zero fields with the defaults above and
// those of provider.HTTPConfig.
func New(cfg Config) *Provider {
	p := &Provider{
		conn:      wire.NewConn(cfg.HTTPConfig, DefaultName, DefaultBaseURL),
		maxTokens: cfg.MaxTokens,
		thinking:  cfg.ThinkingBudget,
	}
	if p.maxTokens <= 0 {
		p.maxTokens = DefaultMaxTokens
	}
	opts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(), // keys come from pincer's config, never the SDK's look-ups
		option.WithBaseURL(baseURL(p.conn.BaseURL)),
		option.WithHTTPClient(p.conn.Caller.Client),
		option.WithMaxRetries(0), // retries are ours: see the package documentation
	}
	if cfg.APIKey != "" {
		if strings.EqualFold(cfg.AuthHeader, AuthBearer) {
			opts = append(opts, option.WithAuthToken(cfg.APIKey))
		} else {
			opts = append(opts, option.WithAPIKey(cfg.APIKey))
		}
	}
	for k, v := range cfg.Headers {
		opts = append(opts, option.WithHeader(k, v))
	}
	p.client = anthropic.NewClient(opts...)
	return p
}

// baseURL normalises Config.BaseURL to the root the SDK appends "v1/messages" to.
func baseURL(s string) string {
	s = strings.TrimRight(s, "/")
	if s == "" {
		return DefaultBaseURL + "/"
	}
	s = strings.TrimSuffix(s, "/v1")
	return s + "/"
}

// Name returns the configured provider name.
func (p *Provider) Name() string { return p.conn.Name }

// Stream sends req to BaseURL+"/v1/messages" with stream=true and yields its events
// (see the package documentation for the contract).
func (p *Provider) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	return func(yield func(provider.Event, error) bool) {
		params, opts := p.buildParams(req)
		p.conn.Run(ctx, yield, func() wire.Attempt { return p.streamOnce(ctx, params, opts, yield) })
	}
}

// errorf builds a *provider.Error of this provider with no HTTP status.
func (p *Provider) errorf(kind provider.Kind, format string, args ...any) *provider.Error {
	return p.conn.Caller.Errorf(kind, format, args...)
}
