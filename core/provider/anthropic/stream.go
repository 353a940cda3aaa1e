package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"pincer/core/provider"
	"pincer/core/provider/internal/wire"
)

// guard is what one SDK exchange runs under: its own context, cancelled by a stall
// watchdog that a middleware kicks when the response headers arrive and the response
// body kicks on every read, and the HTTP response once there is one.
type guard struct {
	ctx    context.Context
	cancel context.CancelFunc
	wd     *wire.Watchdog
	resp   *http.Response
}

// guard starts the watchdog of one exchange.
func (p *Provider) guard(ctx context.Context) *guard {
	g := &guard{}
	g.ctx, g.cancel = context.WithCancel(ctx)
	g.wd = wire.StartWatchdog(p.conn.Caller.Stall, g.cancel)
	return g
}

// options are the SDK request options that put an exchange under the guard.
func (g *guard) options() []option.RequestOption {
	return []option.RequestOption{
		option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
			res, err := next(r)
			if res != nil && res.Body != nil {
				g.wd.Kick()
				res.Body = wire.WatchedBody{R: res.Body, W: g.wd}
			}
			return res, err
		}),
		option.WithResponseInto(&g.resp),
	}
}

// release stops the watchdog and cancels the exchange's context.
func (g *guard) release() {
	g.wd.Stop()
	g.cancel()
}

// streamOnce runs one attempt of Stream: the SDK sends the request and decodes the
// event stream, the decoder turns its events into provider events, and they go to the
// consumer as they come, all under a guard (stall watchdog).
//
// The returned attempt is zero when the stream completed or the consumer stopped
// ranging; otherwise it carries the error and whether a retry is allowed.
func (p *Provider) streamOnce(ctx context.Context, params anthropic.MessageNewParams, extra []option.RequestOption, yield func(provider.Event, error) bool) wire.Attempt {
	g := p.guard(ctx)
	defer g.release()
	stream := p.client.Messages.NewStreaming(g.ctx, params, append(g.options(), extra...)...)
	defer func() { _ = stream.Close() }()

	d := &decoder{}
	flush := func() bool {
		for _, ev := range d.take() {
			if !yield(ev, nil) {
				return false
			}
		}
		return true
	}
	for stream.Next() {
		ev := stream.Current()
		d.feed(&ev)
		if !flush() {
			return wire.Attempt{}
		}
	}
	if err := stream.Err(); err != nil {
		return p.failure(ctx, g, err, d.delivered)
	}
	if !d.end() {
		return wire.Fail(p.errorf(provider.KindStream, "stream ended before completion (no message_delta, no message_stop)"), d.delivered)
	}
	flush()
	return wire.Attempt{}
}

// failure explains why an attempt ended in err, in order: the caller's ctx ended; the
// watchdog fired; the server answered an HTTP error (the SDK's *anthropic.Error with
// an error status); the stream carried an "event: error" (the same type with the
// stream's 200 status, case 29); the connection failed before a response (retryable)
// or broke mid-stream.
func (p *Provider) failure(ctx context.Context, g *guard, err error, delivered bool) wire.Attempt {
	resp := g.resp
	if ctx.Err() != nil {
		return wire.Attempt{Err: ctx.Err()}
	}
	if g.wd.Stalled() {
		return wire.Fail(p.errorf(provider.KindStream, "%s", wire.StallMessage(p.conn.Caller.Stall)), delivered)
	}
	var apiErr *anthropic.Error
	if errors.As(err, &apiErr) {
		if apiErr.StatusCode >= 300 {
			var h http.Header
			if apiErr.Response != nil {
				h = apiErr.Response.Header
			}
			return p.httpFailure(apiErr.StatusCode, h, []byte(apiErr.RawJSON()))
		}
		return wire.Fail(p.eventError([]byte(apiErr.RawJSON())), delivered)
	}
	switch {
	case resp == nil:
		return wire.Attempt{Err: p.errorf(provider.KindNetwork, "%v", err), Retryable: true}
	case resp.StatusCode >= 300:
		return p.httpFailure(resp.StatusCode, resp.Header, []byte(err.Error()))
	}
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return wire.Fail(p.errorf(provider.KindStream, "malformed event: %v", err), delivered)
	}
	return wire.Fail(p.errorf(provider.KindStream, "connection lost mid-stream: %v", err), delivered)
}

// httpFailure is the attempt for an HTTP error answer: the error from its status and
// body, retryable for 429 and 5xx unless the server says "x-should-retry: false", with
// the server's wait hint.
func (p *Provider) httpFailure(status int, h http.Header, body []byte) wire.Attempt {
	perr := p.httpError(status, body)
	if h == nil {
		h = http.Header{}
	}
	a := wire.Attempt{Err: perr, Retryable: perr.Retryable() && !wire.ShouldNotRetry(h)}
	a.RetryAfter, a.HasHint = retryHint(h, perr.Message, time.Now())
	return a
}
