package openai

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Retry limits.
const (
	// maxBackoff caps the computed exponential delay.
	maxBackoff = 30 * time.Second
	// maxServerDelay is the longest retry-after hint honoured. A server asking for
	// more (a quota window, a daily limit) gets no retry: the error goes to the caller
	// at once rather than leaving the user staring at a silent wait.
	maxServerDelay = 60 * time.Second
)

// attempt is the outcome of one HTTP exchange. A zero attempt means success (or a
// consumer that stopped ranging): nothing more to do.
type attempt struct {
	err        error         // what the caller sees if this attempt is the last
	delivered  bool          // events already reached the consumer: never retry
	retryable  bool          // 429, 5xx, connection failure, retryable in-band error
	retryAfter time.Duration // the server's wait hint, when hasHint
	hasHint    bool
}

// retry runs fn until it succeeds, fails for good, or the retries run out, sleeping
// between attempts (ctx-aware). It returns nil on success, ctx.Err() when ctx ended,
// or the last attempt's error.
func (p *Provider) retry(ctx context.Context, fn func() attempt) error {
	for n := 0; ; n++ {
		a := fn()
		if a.err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if a.delivered || !a.retryable || n >= p.maxRetries {
			return a.err
		}
		delay, ok := p.backoff(n, a.retryAfter, a.hasHint)
		if !ok {
			return a.err
		}
		if err := sleep(ctx, delay); err != nil {
			return err
		}
	}
}

// backoff returns the delay before retry number n+1 (n from 0): the server's hint when
// there is one (ok is false when the hint exceeds maxServerDelay), otherwise
// RetryBaseDelay·2^n capped at maxBackoff, with "equal jitter" (half fixed, half
// random) so that clients rate-limited together do not retry together.
func (p *Provider) backoff(n int, hint time.Duration, hasHint bool) (time.Duration, bool) {
	if hasHint {
		if hint > maxServerDelay {
			return 0, false
		}
		return max(hint, 0), true
	}
	d := p.retryBase
	for i := 0; i < n && d < maxBackoff; i++ {
		d *= 2
	}
	d = min(d, maxBackoff)
	half := d / 2
	return half + rand.N(d-half+1), true
}

// sleep waits d or until ctx ends, returning ctx.Err() in the latter case.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// retryHint reads how long the server asks us to wait, in order of precision:
// "retry-after-ms" (milliseconds, OpenAI), "retry-after" (seconds or an HTTP date,
// RFC 9110), then a "try again in 26.604s" phrase in the error message (OpenAI's TPM
// errors, case 36, which arrive without headers through some relays).
func retryHint(h http.Header, message string, now time.Time) (time.Duration, bool) {
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
