// Package responses is pincer's adapter for the OpenAI Responses API (POST
// /responses with stream: true), over net/http and the sse package.
//
// Contract of Stream, on top of provider.Provider's:
//   - response.output_text.delta (and refusal deltas) are yielded as text,
//     response.reasoning_summary_text.delta and response.reasoning_text.delta as
//     reasoning (summary parts separated by a blank line).
//   - A function call is yielded whole when its output item is done
//     (response.output_item.done), with call_id as its id (what a
//     function_call_output must reference, not the item id) and the arguments of
//     response.function_call_arguments.done, which equal the concatenated deltas
//     (case 05).
//   - One usage event, from response.completed (or response.incomplete):
//     input_tokens as InputTokens (it includes cached tokens, also reported as
//     CacheReadTokens from input_tokens_details.cached_tokens), output_tokens as
//     OutputTokens (reasoning included, also reported as ReasoningTokens).
//   - EventDone carries the response status "completed", or the reason of an
//     incomplete response ("max_output_tokens", "content_filter"); under
//     "max_output_tokens" a call whose arguments never completed is marked
//     Truncated. There is no [DONE]: response.completed ends the stream, and a stream
//     ending without it is an error.
//   - An "error" event or response.failed on a 200 stream is a *provider.Error
//     classified by its code: insufficient_quota is KindBilling and is never
//     retried (case 06). HTTP 429, 5xx and connection failures are retried with
//     backoff before anything was yielded, honouring retry-after(-ms).
//   - A stream that delivers no byte for StallTimeout fails with KindStream; ctx
//     ending yields ctx.Err().
//
// Requests are stateless (store: false): the whole transcript goes in input as
// message, function_call and function_call_output items, the system messages in
// instructions.
package responses

import (
	"bytes"
	"context"
	"iter"
	"net/http"
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
)

// Config configures a Provider. The zero value talks to api.openai.com with no key.
type Config struct {
	// Name is the provider name used in errors and returned by Name; default "openai".
	Name string
	// BaseURL is the API root; requests go to BaseURL+"/responses". Default
	// https://api.openai.com/v1. A trailing slash is ignored.
	BaseURL string
	// APIKey is sent as "Authorization: Bearer <key>"; when empty the header is
	// omitted.
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
	// ReasoningEffort is reasoning.effort ("minimal", "low", "medium", "high") for
	// reasoning models; empty sends none.
	ReasoningEffort string
	// ReasoningSummary is reasoning.summary ("auto", "concise", "detailed"): ask for
	// reasoning summaries, yielded as reasoning; empty sends none.
	ReasoningSummary string
	// Headers are extra request headers (OpenAI-Organization, ...).
	Headers map[string]string
}

// Provider streams responses from one Responses API endpoint. It is safe for
// concurrent use.
type Provider struct {
	name             string
	baseURL          string
	apiKey           string
	caller           wire.Caller
	retry            wire.Retry
	reasoningEffort  string
	reasoningSummary string
	headers          map[string]string
}

var _ provider.Provider = (*Provider)(nil)

// New returns a Provider for cfg, filling zero fields with the defaults above.
func New(cfg Config) *Provider {
	p := &Provider{
		name:             cfg.Name,
		baseURL:          strings.TrimRight(cfg.BaseURL, "/"),
		apiKey:           cfg.APIKey,
		retry:            wire.NewRetry(cfg.MaxRetries, cfg.RetryBaseDelay),
		reasoningEffort:  cfg.ReasoningEffort,
		reasoningSummary: cfg.ReasoningSummary,
		headers:          cfg.Headers,
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
	p.caller = wire.Caller{Name: p.name, Client: client, Stall: stall}
	return p
}

// Name returns the configured provider name.
func (p *Provider) Name() string { return p.name }

// Stream sends req to BaseURL+"/responses" with stream=true and yields its events
// (see the package documentation for the contract).
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

// newRequest builds the authenticated POST for one attempt.
func (p *Provider) newRequest(ctx context.Context, body []byte) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.baseURL+"/responses", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	p.authorize(req)
	return req, nil
}

// authorize sets the bearer key and the extra headers.
func (p *Provider) authorize(req *http.Request) {
	if p.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+p.apiKey)
	}
	for k, v := range p.headers {
		req.Header.Set(k, v)
	}
}
