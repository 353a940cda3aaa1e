package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"pincer/core/provider"
)

// maxErrorBody bounds how much of an error response is read.
const maxErrorBody = 1 << 20

// Caller sends the requests of one adapter that speaks plain net/http: every exchange
// runs under a stall watchdog, and a non-2xx answer becomes an Attempt carrying a
// *provider.Error and the server's retry hint.
type Caller struct {
	Name   string        // provider name for errors
	Client *http.Client  // never nil
	Stall  time.Duration // <= 0: no stall guard
	// Refine, when set, adjusts the error of a non-2xx answer (a provider's own
	// status conventions); it may return its argument.
	Refine func(e *provider.Error, info ErrorInfo) *provider.Error
}

// NewCaller builds a Caller from an adapter's configuration fields, where a nil client
// means http.DefaultClient, a zero stall the adapter's defaultStall, and a negative
// stall no guard.
func NewCaller(name string, client *http.Client, stall, defaultStall time.Duration) Caller {
	if client == nil {
		client = http.DefaultClient
	}
	if stall == 0 {
		stall = defaultStall
	}
	return Caller{Name: name, Client: client, Stall: stall}
}

// Exchange is one HTTP request whose response arrived with a 2xx status. Its Body is
// read through the stall watchdog; Close releases everything.
type Exchange struct {
	Resp   *http.Response
	Body   io.Reader
	wd     *Watchdog
	cancel context.CancelFunc
}

// Close releases the response, the watchdog and the attempt's context.
func (x *Exchange) Close() {
	_ = x.Resp.Body.Close()
	x.wd.Stop()
	x.cancel()
}

// Open sends the request that build makes (with the attempt's context) under a stall
// watchdog. It returns the exchange on a 2xx status; otherwise the Attempt describes
// the failure and whether it may be retried.
func (c *Caller) Open(ctx context.Context, build func(context.Context) (*http.Request, error)) (*Exchange, Attempt) {
	actx, cancel := context.WithCancel(ctx)
	wd := StartWatchdog(c.Stall, cancel)
	fail := func(a Attempt) (*Exchange, Attempt) {
		wd.Stop()
		cancel()
		return nil, a
	}
	req, err := build(actx)
	if err != nil {
		return fail(Attempt{Err: c.Errorf(provider.KindBadRequest, "building request: %v", err)})
	}
	resp, err := c.Client.Do(req)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return fail(Attempt{Err: ctx.Err()})
		case wd.Stalled():
			return fail(Attempt{Err: c.StallError()})
		}
		return fail(Attempt{Err: c.Errorf(provider.KindNetwork, "%v", err), Retryable: true})
	}
	wd.Kick()
	x := &Exchange{Resp: resp, Body: WatchedBody{R: resp.Body, W: wd}, wd: wd, cancel: cancel}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return x, Attempt{}
	}
	defer x.Close()
	data, err := io.ReadAll(io.LimitReader(x.Body, maxErrorBody))
	if err != nil && ctx.Err() != nil {
		return nil, Attempt{Err: ctx.Err()}
	}
	if err != nil && wd.Stalled() {
		return nil, Attempt{Err: c.StallError()}
	}
	perr, info := HTTPError(c.Name, resp.StatusCode, data)
	if c.Refine != nil {
		perr = c.Refine(perr, info)
	}
	a := Attempt{Err: perr, Retryable: perr.Retryable() && !ShouldNotRetry(resp.Header)}
	a.RetryAfter, a.HasHint = RetryHint(resp.Header, perr.Message, time.Now())
	if d, err := time.ParseDuration(info.RetryDelay); !a.HasHint && err == nil && d >= 0 {
		a.RetryAfter, a.HasHint = d, true // Google's RetryInfo
	}
	return nil, a
}

// ReadError explains a failed body read: the caller's ctx ended, the watchdog fired,
// or the connection broke.
func (c *Caller) ReadError(ctx context.Context, x *Exchange, err error) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case x.wd.Stalled():
		return c.StallError()
	}
	return c.Errorf(provider.KindStream, "connection lost mid-stream: %v", err)
}

// StallError is the error of an exchange the watchdog cancelled.
func (c *Caller) StallError() *provider.Error {
	return c.Errorf(provider.KindStream, "%s", StallMessage(c.Stall))
}

// Errorf builds a *provider.Error of this provider with no HTTP status.
func (c *Caller) Errorf(kind provider.Kind, format string, args ...any) *provider.Error {
	return &provider.Error{Provider: c.Name, Kind: kind, Message: OneLine(fmt.Sprintf(format, args...))}
}

// Fail builds the Attempt for an error met while streaming: retryable when the error
// is, never when events were already delivered.
func Fail(err error, delivered bool) Attempt {
	a := Attempt{Err: err, Delivered: delivered}
	var pe *provider.Error
	if errors.As(err, &pe) {
		a.Retryable = pe.Retryable()
	}
	return a
}

// maxListBody bounds the size of a model list read.
const maxListBody = 16 << 20

// ReadAll performs one exchange and reads its whole 2xx body (a model list), under
// the stall watchdog.
func (c *Caller) ReadAll(ctx context.Context, build func(context.Context) (*http.Request, error)) ([]byte, Attempt) {
	x, a := c.Open(ctx, build)
	if x == nil {
		return nil, a
	}
	defer x.Close()
	data, err := io.ReadAll(io.LimitReader(x.Body, maxListBody))
	if err != nil {
		return nil, Attempt{Err: c.ReadError(ctx, x, err), Retryable: ctx.Err() == nil && !x.wd.Stalled()}
	}
	return data, Attempt{}
}
