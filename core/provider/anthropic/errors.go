package anthropic

import (
	"net/http"
	"strings"
	"time"

	"pincer/core/provider"
	"pincer/core/provider/internal/wire"
)

// httpError turns an HTTP error answer into a *provider.Error: the kind from the
// status, refined by Anthropic's error type ({"type":"error","error":{"type",
// "message"}}, cases 31-33). 400 "prompt is too long" and 413 request_too_large are
// KindContextLength (compaction can help); 529 overloaded is KindServer.
func (p *Provider) httpError(status int, body []byte) *provider.Error {
	perr, info := wire.HTTPError(p.conn.Name, status, body)
	if info.Type == "request_too_large" || status == http.StatusRequestEntityTooLarge {
		perr.Kind = provider.KindContextLength
	}
	return perr
}

// eventError turns the data of a mid-stream "event: error" (HTTP 200 already sent)
// into a *provider.Error classified by its type: overloaded_error and api_error are
// KindServer (retryable, like HTTP 529 and 500), rate_limit_error KindRateLimit, and
// so on (case 29).
func (p *Provider) eventError(data []byte) *provider.Error {
	info, ok := wire.ParseErrorBody(data)
	msg := wire.OneLine(info.Message)
	if !ok || msg == "" {
		msg = wire.Truncate(wire.OneLine(string(data)), 200)
	}
	if msg == "" {
		msg = "unknown error"
	}
	kind := eventKind(info)
	if !ok && strings.Contains(strings.ToLower(msg), "overloaded") {
		kind = provider.KindServer // a plain-text "Overloaded" (relays, Vertex)
	}
	return &provider.Error{Provider: p.conn.Name, Kind: kind, Message: msg}
}

// eventKind classifies an in-stream error by Anthropic's error types, then by the
// shared rules.
func eventKind(info wire.ErrorInfo) provider.Kind {
	switch info.Type {
	case "request_too_large":
		return provider.KindContextLength
	case "not_found_error":
		return provider.KindNotFound
	case "invalid_request_error":
		if wire.IsContextLength(info) {
			return provider.KindContextLength
		}
		return provider.KindBadRequest
	}
	return wire.InStreamKind(info)
}

// rateLimits are the limits Anthropic reports in anthropic-ratelimit-<name>-remaining
// and -reset headers.
var rateLimits = []string{"requests", "tokens", "input-tokens", "output-tokens"}

// retryHint reads how long Anthropic asks us to wait: retry-after when sent; without
// it (case 33), the latest anthropic-ratelimit-*-reset time (RFC 3339) among the
// limits whose remaining count is 0, measured from the response's Date header (the
// server's clock, so local clock skew does not matter) or from now.
func retryHint(h http.Header, msg string, now time.Time) (time.Duration, bool) {
	if d, ok := wire.RetryHint(h, "", now); ok {
		return d, true
	}
	ref := now
	if t, err := http.ParseTime(h.Get("Date")); err == nil {
		ref = t
	}
	var wait time.Duration
	found := false
	for _, l := range rateLimits {
		if strings.TrimSpace(h.Get("anthropic-ratelimit-"+l+"-remaining")) != "0" {
			continue
		}
		reset, err := time.Parse(time.RFC3339, strings.TrimSpace(h.Get("anthropic-ratelimit-"+l+"-reset")))
		if err != nil {
			continue
		}
		wait, found = max(wait, reset.Sub(ref)), true
	}
	if found {
		return max(wait, 0), true
	}
	return wire.RetryHint(http.Header{}, msg, now)
}
