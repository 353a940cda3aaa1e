package provider

import (
	"net/http"
	"time"
)

// DefaultStallTimeout is how long a stream may stay silent (no byte, waiting for the
// response headers included) before it fails, when HTTPConfig.StallTimeout is zero.
const DefaultStallTimeout = 90 * time.Second

// HTTPConfig is the connection part of the configuration of every adapter that talks
// to its model API over HTTP (each sub-package's Config embeds it). The zero value
// talks to the adapter's default endpoint with no key and the default timeouts.
type HTTPConfig struct {
	// Name is the provider name used in errors and returned by Name ("openai",
	// "deepseek", "openrouter"); empty means the adapter's default name.
	Name string
	// BaseURL is the API root the adapter appends its paths to (each adapter's
	// Config says which); empty means the adapter's default. A trailing slash is
	// ignored.
	BaseURL string
	// APIKey is sent in the adapter's authentication header; when empty no key is
	// sent (Ollama, LM Studio, a local vLLM).
	APIKey string
	// HTTPClient sends the requests; nil means http.DefaultClient. Its Timeout should
	// be zero: a whole-request timeout would cut long streams (StallTimeout guards
	// them).
	HTTPClient *http.Client
	// StallTimeout fails a stream that delivers no byte for this long (waiting for
	// the response headers counts too). Zero means DefaultStallTimeout; negative
	// disables the guard.
	StallTimeout time.Duration
	// MaxRetries is how many times a request is retried after HTTP 429, 5xx or a
	// connection failure, while nothing was yielded. Zero means 3; negative disables
	// retries.
	MaxRetries int
	// RetryBaseDelay is the first backoff delay, doubled on each retry (with
	// jitter); zero means 1s. A server's wait hint replaces the computed delay.
	RetryBaseDelay time.Duration
	// Headers are extra request headers (OpenRouter's X-Title, anthropic-beta,
	// Vertex AI's Authorization, ...). They are set after the adapter's own and may
	// replace them.
	Headers map[string]string
}
