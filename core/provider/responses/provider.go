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
	"context"
	"iter"
	"net/http"

	"pincer/core/provider"
	"pincer/core/provider/internal/wire"
)

// Defaults for the zero values of Config.
const (
	// DefaultBaseURL is OpenAI's API root.
	DefaultBaseURL = "https://api.openai.com/v1"
	// DefaultName is the provider name used when Config.Name is empty.
	DefaultName = "openai"
)

// Config configures a Provider. The zero value talks to api.openai.com with no key.
// Of the connection fields: requests go to BaseURL+"/responses" and BaseURL+"/models"
// (default https://api.openai.com/v1); the key is sent as "Authorization: Bearer
// <key>".
type Config struct {
	provider.HTTPConfig
	// ReasoningEffort is reasoning.effort ("minimal", "low", "medium", "high") for
	// reasoning models; empty sends none.
	ReasoningEffort string
	// ReasoningSummary is reasoning.summary ("auto", "concise", "detailed"): ask for
	// reasoning summaries, yielded as reasoning; empty sends none.
	ReasoningSummary string
}

// Provider streams responses from one Responses API endpoint. It is safe for
// concurrent use.
type Provider struct {
	conn             wire.Conn
	reasoningEffort  string
	reasoningSummary string
}

var _ provider.Provider = (*Provider)(nil)

// New returns a Provider for cfg, filling zero fields with the defaults above and
// those of provider.HTTPConfig.
func New(cfg Config) *Provider {
	return &Provider{
		conn:             wire.NewConn(cfg.HTTPConfig, DefaultName, DefaultBaseURL),
		reasoningEffort:  cfg.ReasoningEffort,
		reasoningSummary: cfg.ReasoningSummary,
	}
}

// Name returns the configured provider name.
func (p *Provider) Name() string { return p.conn.Name }

// Stream sends req to BaseURL+"/responses" with stream=true and yields its events
// (see the package documentation for the contract).
func (p *Provider) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	return func(yield func(provider.Event, error) bool) {
		body, err := p.encodeRequest(req)
		if err != nil {
			yield(provider.Event{}, p.conn.Caller.Errorf(provider.KindBadRequest, "encoding request: %v", err))
			return
		}
		build := p.conn.Request(http.MethodPost, p.conn.BaseURL+"/responses", body, "text/event-stream")
		p.conn.Run(ctx, yield, func() wire.Attempt {
			return p.conn.Caller.SSE(ctx, build, &decoder{name: p.conn.Name}, yield)
		})
	}
}
