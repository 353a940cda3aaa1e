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
//     the body ends the stream, and a stream without a finishReason is an error.
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
	"bytes"
	"context"
	"iter"
	"net/http"
	"net/url"
	"strings"
	"time"

	"pincer/core/provider"
	"pincer/core/provider/internal/wire"
)

// Defaults for the zero values of Config.
const (
	// DefaultBaseURL is the Gemini API root.
	DefaultBaseURL = "https://generativelanguage.googleapis.com/v1beta"
	// DefaultName is the provider name used when Config.Name is empty.
	DefaultName = "gemini"
	// DefaultStallTimeout is how long a stream may stay silent before it fails.
	DefaultStallTimeout = 90 * time.Second
)

// Config configures a Provider. The zero value talks to the Gemini API with no key.
type Config struct {
	// Name is the provider name used in errors and returned by Name; default "gemini".
	Name string
	// BaseURL is the API root; requests go to
	// BaseURL+"/models/{model}:streamGenerateContent?alt=sse". Default
	// https://generativelanguage.googleapis.com/v1beta. For Vertex AI use the
	// ".../locations/{loc}/publishers/google" root and put the OAuth token in Headers.
	BaseURL string
	// APIKey is sent as "x-goog-api-key"; when empty the header is omitted.
	APIKey string
	// HTTPClient sends the requests; default http.DefaultClient. Its Timeout should be
	// zero (StallTimeout guards long streams).
	HTTPClient *http.Client
	// StallTimeout fails a stream that delivers no byte for this long (waiting for the
	// response headers counts too). Zero means 90s; negative disables the guard.
	StallTimeout time.Duration
	// MaxRetries is how many times a request is retried after HTTP 429, 5xx or a
	// connection failure. Zero means 3; negative disables retries.
	MaxRetries int
	// RetryBaseDelay is the first backoff delay, doubled on each retry (with jitter);
	// zero means 1s. A server's wait hint replaces the computed delay.
	RetryBaseDelay time.Duration
	// MaxTokens is maxOutputTokens when the request sets none; zero leaves it to the
	// model.
	MaxTokens int
	// ThinkingBudget is thinkingConfig.thinkingBudget: > 0 a token budget, -1 dynamic
	// thinking, 0 the model's default (not sent).
	ThinkingBudget int
	// IncludeThoughts asks for thought summaries, yielded as reasoning.
	IncludeThoughts bool
	// Headers are extra request headers (Authorization for Vertex AI, ...).
	Headers map[string]string
}

// Provider streams generateContent from one Gemini endpoint. It is safe for concurrent
// use.
type Provider struct {
	name            string
	baseURL         string
	apiKey          string
	caller          wire.Caller
	retry           wire.Retry
	maxTokens       int
	thinkingBudget  int
	includeThoughts bool
	headers         map[string]string
}

var _ provider.Provider = (*Provider)(nil)

// New returns a Provider for cfg, filling zero fields with the defaults above.
func New(cfg Config) *Provider {
	p := &Provider{
		name:            cfg.Name,
		baseURL:         strings.TrimRight(cfg.BaseURL, "/"),
		apiKey:          cfg.APIKey,
		retry:           wire.NewRetry(cfg.MaxRetries, cfg.RetryBaseDelay),
		maxTokens:       max(cfg.MaxTokens, 0),
		thinkingBudget:  cfg.ThinkingBudget,
		includeThoughts: cfg.IncludeThoughts,
		headers:         cfg.Headers,
	}
	if p.name == "" {
		p.name = DefaultName
	}
	if p.baseURL == "" {
		p.baseURL = DefaultBaseURL
	}
	stall := cfg.StallTimeout
	if stall == 0 {
		stall = DefaultStallTimeout
	}
	client := cfg.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	p.caller = wire.Caller{Name: p.name, Client: client, Stall: stall, Refine: refineHTTPError}
	return p
}

// Name returns the configured provider name.
func (p *Provider) Name() string { return p.name }

// Stream sends req to models/{model}:streamGenerateContent?alt=sse and yields its
// events (see the package documentation for the contract).
func (p *Provider) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	return func(yield func(provider.Event, error) bool) {
		body, err := p.encodeRequest(req)
		if err != nil {
			yield(provider.Event{}, p.caller.Errorf(provider.KindBadRequest, "encoding request: %v", err))
			return
		}
		endpoint := p.baseURL + "/models/" + url.PathEscape(strings.TrimPrefix(req.Model, "models/")) +
			":streamGenerateContent?alt=sse"
		err = p.retry.Do(ctx, func() wire.Attempt { return p.streamOnce(ctx, endpoint, body, yield) })
		if err != nil {
			yield(provider.Event{}, wire.Redact(err, p.apiKey))
		}
	}
}

// newRequest builds the authenticated POST for one attempt.
func (p *Provider) newRequest(ctx context.Context, endpoint string, body []byte) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	p.authorize(req)
	return req, nil
}

// authorize sets the key (x-goog-api-key, never in the URL, where it would reach
// logs) and the extra headers.
func (p *Provider) authorize(req *http.Request) {
	if p.apiKey != "" {
		req.Header.Set("x-goog-api-key", p.apiKey)
	}
	for k, v := range p.headers {
		req.Header.Set(k, v)
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
