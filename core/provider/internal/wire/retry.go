package wire

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"pincer/core/ctxwait"
)

// Retry limits.
const (
	// MaxBackoff caps the computed exponential delay.
	MaxBackoff = 30 * time.Second
	// MaxServerDelay is the longest wait hint honoured. A server asking for more (a
	// quota window, a daily limit) gets no retry: the error goes to the caller at once
	// rather than leaving the user staring at a silent wait.
	MaxServerDelay = 60 * time.Second
)

// Attempt is the outcome of one HTTP exchange. A zero Attempt means success (or a
// consumer that stopped ranging): nothing more to do.
type Attempt struct {
	Err        error         // what the caller sees if this attempt is the last
	Delivered  bool          // events already reached the consumer: never retry
	Retryable  bool          // 429, 5xx, connection failure, retryable in-band error
	RetryAfter time.Duration // the server's wait hint, when HasHint
	HasHint    bool
}

// Retry is a retry policy: at most Max retries after the first attempt, the first
// computed delay Base, doubled on each retry.
type Retry struct {
	Max  int           // >= 0
	Base time.Duration // > 0
}

// NewRetry builds a policy from an adapter's configuration fields, where zero means
// the default (3 retries, 1s) and a negative maxRetries disables retries.
func NewRetry(maxRetries int, base time.Duration) Retry {
	switch {
	case maxRetries == 0:
		maxRetries = 3
	case maxRetries < 0:
		maxRetries = 0
	}
	if base <= 0 {
		base = time.Second
	}
	return Retry{Max: maxRetries, Base: base}
}

// Do runs fn until it succeeds, fails for good, or the retries run out, sleeping
// between attempts (ctx-aware). It returns nil on success, ctx.Err() when ctx ended,
// or the last attempt's error.
func (r Retry) Do(ctx context.Context, fn func() Attempt) error {
	return r.DoNotify(ctx, fn, nil)
}

// DoNotify is Do telling notify (when not nil) of each retry before its wait:
// the failed attempt's error, the delay, and the attempt about to come (2 for
// the first retry) of how many at most. A notify returning false ends the
// retries with the failed attempt's error.
func (r Retry) DoNotify(ctx context.Context, fn func() Attempt, notify func(err error, delay time.Duration, next, of int) bool) error {
	for n := 0; ; n++ {
		a := fn()
		if a.Err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if a.Delivered || !a.Retryable || n >= r.Max {
			return a.Err
		}
		delay, ok := r.Backoff(n, a.RetryAfter, a.HasHint)
		if !ok {
			return a.Err
		}
		if notify != nil && !notify(a.Err, delay, n+2, r.Max+1) {
			return a.Err
		}
		if err := ctxwait.Sleep(ctx, delay); err != nil {
			return err
		}
	}
}

// Backoff returns the delay before retry number n+1 (n from 0): the server's hint when
// there is one (ok is false when the hint exceeds MaxServerDelay), otherwise Base·2^n
// capped at MaxBackoff, with "equal jitter" (half fixed, half random) so that clients
// rate-limited together do not retry together.
func (r Retry) Backoff(n int, hint time.Duration, hasHint bool) (time.Duration, bool) {
	if hasHint {
		if hint > MaxServerDelay {
			return 0, false
		}
		return max(hint, 0), true
	}
	d := r.Base
	for i := 0; i < n && d < MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, MaxBackoff)
	half := d / 2
	return half + rand.N(d-half+1), true
}

// RetryHint reads how long the server asks us to wait, in order of precision:
// "retry-after-ms" (milliseconds, OpenAI), "retry-after" (seconds or an HTTP date,
// RFC 9110), then a "try again in 26.604s" phrase in the error message (OpenAI's TPM
// errors).
func RetryHint(h http.Header, message string, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
			return time.Duration(s * float64(time.Second)), true
		}
		if at, err := http.ParseTime(v); err == nil {
			return max(at.Sub(now), 0), true
		}
	}
	return hintInMessage(message)
}

// hintInMessage parses "try again in <Go-style duration>" ("26.604s", "1m30s",
// "120ms") out of an error message.
func hintInMessage(msg string) (time.Duration, bool) {
	const phrase = "try again in "
	i := strings.Index(strings.ToLower(msg), phrase)
	if i < 0 {
		return 0, false
	}
	rest := msg[i+len(phrase):]
	if j := strings.IndexAny(rest, " ,;)"); j >= 0 {
		rest = rest[:j]
	}
	rest = strings.TrimRight(rest, ".")
	d, err := time.ParseDuration(rest)
	if err != nil || d < 0 {
		return 0, false
	}
	return d, true
}

// ShouldNotRetry reports a server's explicit "x-should-retry: false" (OpenAI,
// Anthropic): a retry cannot help, whatever the status.
func ShouldNotRetry(h http.Header) bool {
	return strings.EqualFold(strings.TrimSpace(h.Get("X-Should-Retry")), "false")
}
