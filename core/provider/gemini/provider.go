// Package gemini is pincer's adapter for Google's native Gemini streaming API,
// streamGenerateContent with alt=sse (the Gemini API; Vertex AI speaks the same
// body), over net/http and the sse package.
//
// Contract of Stream, on top of provider.Provider's:
//   - Text parts are yielded as text, "thought": true parts as reasoning. A
//     thoughtSignature on a text or thought part is yielded as a reasoning event
//     carrying Signature; on a function call it stays on the tool call
//     (message.Part.Signature), and both go back to Gemini on the next request, as
//     Gemini 3 requires for function calling.
//   - Tool calls are yielded whole when complete: a functionCall with its args object
//     (compacted JSON, keys in the order sent; "{}" without arguments), or a Gemini 3
//     streamed call (name + willContinue, partialArgs by JSON path, an empty closing
//     functionCall) assembled into one JSON object. Gemini sends no call ids: they are
//     synthesized, stable for the response ("gemini-call-<responseId>-<n>"), and
//     never sent back.
//   - One usage event before EventDone: promptTokenCount as InputTokens (it includes
//     cachedContentTokenCount, also reported as CacheReadTokens), candidatesTokenCount
//   - thoughtsTokenCount as OutputTokens (both are billed as output), and
//     thoughtsTokenCount as ReasoningTokens.
//   - EventDone carries finishReason as sent ("STOP" even when the model called
//     tools, case 23; "MAX_TOKENS", "SAFETY", ...). Gemini sends no [DONE]: the end of
//     the body ends the stream, and a stream without a finishReason is an error, as is MALFORMED_FUNCTION_CALL (KindMalformedCall).
//   - Errors are *provider.Error values with one-line messages: HTTP errors by status
//     (400 "API key not valid" is KindAuth, 429 RESOURCE_EXHAUSTED KindRateLimit),
//     an error object inside the stream by its status. HTTP 429, 5xx and connection
//     failures are retried with backoff before anything was yielded, honouring
//     retry-after and Google's RetryInfo retryDelay.
//   - A stream that delivers no byte for StallTimeout fails with KindStream; ctx
//     ending yields ctx.Err().
//
// Tool schemas are rewritten by SanitizeSchema into the Schema subset Gemini accepts.
package gemini

import (
	"context"
	"iter"
	"net/http"
	"net/url"
	"strings"

	"pincer/core/provider"
	"pincer/core/provider/internal/wire"
)

// Defaults for the zero values of Config.
const (
	// DefaultBaseURL is the Gemini API root.
	DefaultBaseURL = "https://generativelanguage.googleapis.com/v1beta"
	// DefaultName is the provider name used when Config.Name is empty.
	DefaultName = "gemini"
)

// Config configures a Provider. The zero value talks to the Gemini API with no key.
// Of the connection fields: requests go to
// BaseURL+"/models/{model}:streamGenerateContent?alt=sse" (default
// https://generativelanguage.googleapis.com/v1beta; for Vertex AI use the
// ".../locations/{loc}/publishers/google" root and put the OAuth token in Headers);
// the key is sent as "x-goog-api-key", never in the URL, where it would reach logs.
type Config struct {
	provider.HTTPConfig
	// MaxTokens is maxOutputTokens when the request sets none; zero leaves it to the
	// model.
	MaxTokens int
	// ThinkingBudget is thinkingConfig.thinkingBudget: > 0 a token budget, -1 dynamic
	// thinking, 0 the model's default (not sent).
	ThinkingBudget int
	// IncludeThoughts asks for thought summaries, yielded as reasoning.
	IncludeThoughts bool
}

// Provider streams generateContent from one Gemini endpoint. It is safe for concurrent
// use.
type Provider struct {
	conn            wire.Conn
	maxTokens       int
	thinkingBudget  int
	includeThoughts bool
}

var _ provider.Provider = (*Provider)(nil)

// New returns a Provider for cfg, filling zero fields with the defaults above and
// those of provider.HTTPConfig.
func New(cfg Config) *Provider {
	p := &Provider{
		conn:            wire.NewConn(cfg.HTTPConfig, DefaultName, DefaultBaseURL),
		maxTokens:       max(cfg.MaxTokens, 0),
		thinkingBudget:  cfg.ThinkingBudget,
		includeThoughts: cfg.IncludeThoughts,
	}
	p.conn.KeyHeader, p.conn.KeyPrefix = "x-goog-api-key", ""
	p.conn.Caller.Refine = refineHTTPError
	return p
}

// Name returns the configured provider name.
func (p *Provider) Name() string { return p.conn.Name }

// Stream sends req to models/{model}:streamGenerateContent?alt=sse and yields its
// events (see the package documentation for the contract). The event stream is
// CRLF-framed (case 22/23); Gemini sends no [DONE], so the end of the body ends it.
func (p *Provider) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	return func(yield func(provider.Event, error) bool) {
		names := newToolNames(req.Tools, req.Messages)
		body, err := p.encodeRequest(req, names)
		if err != nil {
			yield(provider.Event{}, p.conn.Caller.Errorf(provider.KindBadRequest, "encoding request: %v", err))
			return
		}
		endpoint := p.conn.BaseURL + "/models/" + url.PathEscape(strings.TrimPrefix(req.Model, "models/")) +
			":streamGenerateContent?alt=sse"
		build := p.conn.Request(http.MethodPost, endpoint, body, "text/event-stream")
		p.conn.Run(ctx, yield, func() wire.Attempt {
			return p.conn.Caller.SSE(ctx, build, &decoder{name: p.conn.Name, names: names}, yield)
		})
	}
}

// refineHTTPError applies Google's conventions to an HTTP error: an invalid API key
// comes as 400 INVALID_ARGUMENT with reason API_KEY_INVALID, which is KindAuth;
// "The input token count ... exceeds the maximum" is KindContextLength (the shared
// rules see to that).
func refineHTTPError(e *provider.Error, info wire.ErrorInfo) *provider.Error {
	if info.Reason == "API_KEY_INVALID" || strings.Contains(strings.ToLower(info.Message), "api key not valid") {
		e.Kind = provider.KindAuth
	}
	return e
}
