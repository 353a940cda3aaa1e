package wire

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"pincer/core/provider"
)

// Conn is what an HTTP adapter keeps of its provider.HTTPConfig, defaults applied:
// the endpoint, the key and how it is sent, the extra headers, the caller (client
// and stall guard) and the retry policy. It is immutable after NewConn and safe for
// concurrent use.
type Conn struct {
	Name    string // provider name in errors
	BaseURL string // API root, without a trailing slash
	APIKey  string
	// KeyHeader names the header that carries APIKey ("Authorization",
	// "x-goog-api-key"); KeyPrefix precedes the key in it ("Bearer ").
	KeyHeader, KeyPrefix string
	Headers              map[string]string
	Caller               Caller
	Retry                Retry
}

// NewConn applies the defaults of cfg's zero fields: defaultName and defaultBaseURL
// for an adapter's own endpoint, provider.DefaultStallTimeout, http.DefaultClient,
// and NewRetry's policy. The key goes in "Authorization: Bearer <key>" unless the
// adapter sets KeyHeader and KeyPrefix otherwise.
func NewConn(cfg provider.HTTPConfig, defaultName, defaultBaseURL string) Conn {
	c := Conn{
		Name:      cfg.Name,
		BaseURL:   strings.TrimRight(cfg.BaseURL, "/"),
		APIKey:    cfg.APIKey,
		KeyHeader: "Authorization",
		KeyPrefix: "Bearer ",
		Headers:   cfg.Headers,
		Retry:     NewRetry(cfg.MaxRetries, cfg.RetryBaseDelay),
	}
	if c.Name == "" {
		c.Name = defaultName
	}
	if c.BaseURL == "" {
		c.BaseURL = defaultBaseURL
	}
	c.Caller = NewCaller(c.Name, cfg.HTTPClient, cfg.StallTimeout, provider.DefaultStallTimeout)
	return c
}

// Request returns the builder of one exchange's request: method to url (absolute)
// carrying body as JSON (nil sends none), with Accept accept, the key in KeyHeader
// when there is one, then Headers, which may replace any of these.
func (c *Conn) Request(method, url string, body []byte, accept string) func(context.Context) (*http.Request, error) {
	return func(ctx context.Context) (*http.Request, error) {
		var rd io.Reader
		if body != nil {
			rd = bytes.NewReader(body)
		}
		req, err := http.NewRequestWithContext(ctx, method, url, rd)
		if err != nil {
			return nil, err
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		req.Header.Set("Accept", accept)
		if c.APIKey != "" {
			req.Header.Set(c.KeyHeader, c.KeyPrefix+c.APIKey)
		}
		for k, v := range c.Headers {
			req.Header.Set(k, v)
		}
		return req, nil
	}
}

// Run is the body of an adapter's Stream: attempt runs until it succeeds, fails for
// good or the retries of c.Retry run out (see Retry.Do), and the final error, with
// APIKey redacted from it, is yielded as the stream's last item.
//
// Each retry is announced first as a provider.EventRetry.
func (c *Conn) Run(ctx context.Context, yield func(provider.Event, error) bool, attempt func() Attempt) {
	stopped := false
	notify := func(err error, delay time.Duration, next, of int) bool {
		text := fmt.Sprintf("%v: retrying in %s (attempt %d of %d)", Redact(err, c.APIKey), delay.Round(100*time.Millisecond), next, of)
		if !yield(provider.Event{Type: provider.EventRetry, Text: text}, nil) {
			stopped = true
			return false
		}
		return true
	}
	if err := c.Retry.DoNotify(ctx, attempt, notify); err != nil && !stopped {
		yield(provider.Event{}, Redact(err, c.APIKey))
	}
}
