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
	"context"
	"iter"
	"net/url"

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
// Of the connection fields: requests go to BaseURL+"/chat/completions" and
// BaseURL+"/models" (default https://api.openai.com/v1); the key is sent as
// "Authorization: Bearer <key>".
type Config struct {
	provider.HTTPConfig
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
	conn           wire.Conn // endpoint, key, headers, client, stall guard, retries
	sendReasoning  bool
	maxTokensParam string
}

var _ provider.Provider = (*Provider)(nil)

// New returns a Provider for cfg, filling zero fields with the defaults above and
// those of provider.HTTPConfig.
func New(cfg Config) *Provider {
	p := &Provider{
		conn:           wire.NewConn(cfg.HTTPConfig, DefaultName, DefaultBaseURL),
		sendReasoning:  cfg.SendReasoning,
		maxTokensParam: cfg.MaxTokensParam,
	}
	if p.maxTokensParam == "" {
		p.maxTokensParam = "max_tokens"
		if u, err := url.Parse(p.conn.BaseURL); err == nil && u.Hostname() == "api.openai.com" {
			p.maxTokensParam = "max_completion_tokens"
		}
	}
	return p
}

// Name returns the configured provider name.
func (p *Provider) Name() string { return p.conn.Name }

// Stream sends req to BaseURL+"/chat/completions" with stream=true and yields its
// events (see the package documentation for the contract).
func (p *Provider) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	return func(yield func(provider.Event, error) bool) {
		body, err := p.encodeRequest(req)
		if err != nil {
			yield(provider.Event{}, p.conn.Caller.Errorf(provider.KindBadRequest, "encoding request: %v", err))
			return
		}
		p.conn.Run(ctx, yield, func() wire.Attempt { return p.streamOnce(ctx, body, yield) })
	}
}
