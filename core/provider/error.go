package provider

import "fmt"

// Kind classifies a provider failure so callers can react (retry, compact, tell the
// user to fix a key) without parsing messages.
type Kind string

// Failure kinds.
const (
	KindAuth          Kind = "auth"           // 401/403: bad or missing key
	KindBilling       Kind = "billing"        // 402: out of credit
	KindNotFound      Kind = "not_found"      // 404: wrong model or URL
	KindRateLimit     Kind = "rate_limit"     // 429
	KindContextLength Kind = "context_length" // the request is too long for the model
	KindBadRequest    Kind = "bad_request"    // other 4xx
	KindServer        Kind = "server"         // 5xx, overloaded
	KindStream        Kind = "stream"         // an error inside a 200 stream, a stall, a cut
	KindNetwork       Kind = "network"        // could not connect
	// KindMalformedCall: the model produced a tool call its API could not parse
	// (Gemini's finishReason MALFORMED_FUNCTION_CALL). The same request may well
	// succeed when sent again, so the agent loop retries it once.
	KindMalformedCall Kind = "malformed_call"
)

// Error is a provider failure. Error() is one line naming the provider and the cause,
// fit for a terminal: "openai: rate limited (HTTP 429): ...". Status is the HTTP status
// (0 for stream and network errors).
type Error struct {
	Provider string
	Kind     Kind
	Status   int
	Message  string
}

func (e *Error) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("%s: %s (HTTP %d): %s", e.Provider, describe(e.Kind), e.Status, e.Message)
	}
	return fmt.Sprintf("%s: %s: %s", e.Provider, describe(e.Kind), e.Message)
}

// Retryable reports whether the same request may succeed later (rate limits, server
// errors, network errors).
func (e *Error) Retryable() bool {
	return e.Kind == KindRateLimit || e.Kind == KindServer || e.Kind == KindNetwork
}

func describe(k Kind) string {
	switch k {
	case KindAuth:
		return "authentication failed"
	case KindBilling:
		return "payment required"
	case KindNotFound:
		return "not found"
	case KindRateLimit:
		return "rate limited"
	case KindContextLength:
		return "context length exceeded"
	case KindBadRequest:
		return "bad request"
	case KindServer:
		return "server error"
	case KindStream:
		return "stream error"
	case KindNetwork:
		return "network error"
	case KindMalformedCall:
		return "malformed tool call"
	}
	return string(k)
}
