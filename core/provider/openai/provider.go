// Package openai is pincer's adapter for the OpenAI Chat Completions streaming API and
// the many servers that copy it: OpenAI, DeepSeek, OpenRouter, Groq, Mistral, Z.ai,
// Ollama, LM Studio, vLLM, llama.cpp.
//
// It is a small layer over net/http and the sse package, not a vendor SDK, so every
// dialect quirk lives here in plain sight (chunk.go, stream.go and toolcalls.go), next
// to the captures in shared/cases/streams that the tests replay byte for byte. The
// retries, the stall guard and the reading of error bodies (OpenRouter's metadata.raw,
// DeepSeek's octet-stream JSON, Google's arrays) are the ones every adapter shares, in
// core/provider/internal/wire.
//
// Contract of Stream, on top of provider.Provider's:
//   - Text and reasoning deltas are yielded as they arrive. Tool calls are yielded whole,
//     in index order, when the finish reason arrives (or at the end of the stream), with
//     their arguments exactly as concatenated from the deltas.
//   - EventDone is the last event and carries the finish reason as sent.
//   - Errors are *provider.Error values with one-line messages; ctx ending yields
//     ctx.Err(). HTTP 429, 5xx and connection failures are retried with exponential
//     backoff before anything was yielded, never after.
//   - A stream that delivers no byte for StallTimeout fails with KindStream.
package openai

import (
	"bytes"
	"context"
	"io"
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
	// DefaultBaseURL is OpenAI's API root.
	DefaultBaseURL = "https://api.openai.com/v1"
	// DefaultName is the provider name used when Config.Name is empty.
	DefaultName = "openai"
	// DefaultStallTimeout is how long a stream may stay silent before it fails.
	DefaultStallTimeout = 90 * time.Second
	// DefaultMaxRetries is how many times a retryable failure is retried (the default
	// of wire.NewRetry).
	DefaultMaxRetries = 3
	// DefaultRetryBaseDelay is the first backoff delay, doubled on each retry (the
	// default of wire.NewRetry).
	DefaultRetryBaseDelay = time.Second
)

// Config configures a Provider. The zero value talks to api.openai.com with no key.
type Config struct {
	// Name is the provider name used in errors and returned by Name ("openai",
	// "deepseek", "openrouter"); default "openai".
	Name string
	// BaseURL is the API root; requests go to BaseURL+"/chat/completions" and
	// BaseURL+"/models". Default https://api.openai.com/v1. A trailing slash is ignored.
	BaseURL string
	// APIKey is sent as "Authorization: Bearer <key>"; when empty the header is omitted
	// (Ollama, LM Studio, local vLLM).
	APIKey string
	// HTTPClient sends the requests; default http.DefaultClient. Its Timeout should be
	// zero: a whole-request timeout would cut long streams (StallTimeout guards them).
	HTTPClient *http.Client
	// StallTimeout fails a stream that delivers no byte for this long (waiting for the
	// response headers counts too). Zero means 90s; negative disables the guard.
	StallTimeout time.Duration
	// MaxRetries is how many times a request is retried after HTTP 429, 5xx or a
	// connection failure. Zero means 3; negative disables retries.
	MaxRetries int
	// RetryBaseDelay is the first backoff delay, doubled on each retry (with jitter);
	// zero means 1s. A server's retry-after hint replaces the computed delay.
	RetryBaseDelay time.Duration
	// Headers are extra request headers (OpenRouter's HTTP-Referer, X-Title, ...). They
	// are set after the defaults and may replace them.
	Headers map[string]string
	// SendReasoning sends the reasoning of the assistant messages after the last
	// user message (the tool loop in progress) back as "reasoning_content", as
	// DeepSeek's thinking mode requires; reasoning of earlier turns is never sent
	// (DeepSeek rejects it). Default false: most servers reject or ignore the field.
	SendReasoning bool
	// MaxTokensParam names the request field that carries Request.MaxTokens:
	// "max_tokens" or "max_completion_tokens". Empty picks "max_completion_tokens" for
	// api.openai.com (its reasoning models reject max_tokens) and "max_tokens"
	// elsewhere (what most compatible servers understand).
	MaxTokensParam string
}

// Provider streams chat completions from one OpenAI-compatible endpoint. It is safe for
// concurrent use.
type Provider struct {
	name           string
	baseURL        string
	apiKey         string
	caller         wire.Caller // the HTTP client and the stall guard
	retry          wire.Retry
	headers        map[string]string
	sendReasoning  bool
	maxTokensParam string
}

var _ provider.Provider = (*Provider)(nil)

// New returns a Provider for cfg, filling zero fields with the defaults above.
func New(cfg Config) *Provider {
	p := &Provider{
		name:           cfg.Name,
		baseURL:        strings.TrimRight(cfg.BaseURL, "/"),
		apiKey:         cfg.APIKey,
		retry:          wire.NewRetry(cfg.MaxRetries, cfg.RetryBaseDelay),
		headers:        cfg.Headers,
		sendReasoning:  cfg.SendReasoning,
		maxTokensParam: cfg.MaxTokensParam,
	}
	if p.name == "" {
		p.name = DefaultName
	}
	if p.baseURL == "" {
		p.baseURL = DefaultBaseURL
	}
	p.caller = wire.NewCaller(p.name, cfg.HTTPClient, cfg.StallTimeout, DefaultStallTimeout)
	if p.maxTokensParam == "" {
		p.maxTokensParam = "max_tokens"
		if u, err := url.Parse(p.baseURL); err == nil && u.Hostname() == "api.openai.com" {
			p.maxTokensParam = "max_completion_tokens"
		}
	}
	return p
}

// Name returns the configured provider name.
func (p *Provider) Name() string { return p.name }

// Stream sends req to BaseURL+"/chat/completions" with stream=true and yields its
// events (see the package documentation for the contract).
func (p *Provider) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	return func(yield func(provider.Event, error) bool) {
		body, err := p.encodeRequest(req)
		if err != nil {
			yield(provider.Event{}, p.caller.Errorf(provider.KindBadRequest, "encoding request: %v", err))
			return
		}
		err = p.retry.Do(ctx, func() wire.Attempt { return p.streamOnce(ctx, body, yield) })
		if err != nil {
			yield(provider.Event{}, wire.Redact(err, p.apiKey))
		}
	}
}

// request returns the builder of one exchange's request: an authenticated request
// to BaseURL+path carrying body (nil sends none), with accept as its Accept header.
func (p *Provider) request(method, path string, body []byte, accept string) func(context.Context) (*http.Request, error) {
	return func(ctx context.Context) (*http.Request, error) {
		var rd io.Reader
		if body != nil {
			rd = bytes.NewReader(body)
		}
		req, err := http.NewRequestWithContext(ctx, method, p.baseURL+path, rd)
		if err != nil {
			return nil, err
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if p.apiKey != "" {
			req.Header.Set("Authorization", "Bearer "+p.apiKey)
		}
		for k, v := range p.headers {
			req.Header.Set(k, v)
		}
		req.Header.Set("Accept", accept)
		return req, nil
	}
}
