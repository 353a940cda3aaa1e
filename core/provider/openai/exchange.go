package openai

import (
	"context"
	"io"
	"net/http"
	"strings"
	"time"

	"pincer/core/provider"
)

// maxErrorBody bounds how much of an error response is read.
const maxErrorBody = 1 << 20

// exchange is one HTTP request whose response arrived with a 2xx status. Its body is
// read through the stall watchdog; close releases everything.
type exchange struct {
	resp   *http.Response
	body   io.Reader
	wd     *watchdog
	cancel context.CancelFunc
}

// close releases the response, the watchdog and the attempt's context.
func (x *exchange) close() {
	_ = x.resp.Body.Close()
	x.wd.stop()
	x.cancel()
}

// open sends one request under a stall watchdog. It returns the exchange on a 2xx
// status; otherwise the attempt describes the failure (and whether it may be retried).
func (p *Provider) open(ctx context.Context, method, path string, body []byte, accept string) (*exchange, attempt) {
	actx, cancel := context.WithCancel(ctx)
	wd := startWatchdog(p.stall, cancel)
	fail := func(a attempt) (*exchange, attempt) {
		wd.stop()
		cancel()
		return nil, a
	}
	req, err := p.newRequest(actx, method, path, body)
	if err != nil {
		return fail(attempt{err: p.errorf(provider.KindBadRequest, "building request: %v", err)})
	}
	req.Header.Set("Accept", accept)
	resp, err := p.client.Do(req)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return fail(attempt{err: ctx.Err()})
		case wd.stalled():
			return fail(attempt{err: p.stallError()})
		}
		return fail(attempt{err: p.errorf(provider.KindNetwork, "%v", err), retryable: true})
	}
	wd.kick()
	x := &exchange{resp: resp, body: watchedReader{r: resp.Body, w: wd}, wd: wd, cancel: cancel}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return x, attempt{}
	}
	defer x.close()
	data, err := io.ReadAll(io.LimitReader(x.body, maxErrorBody))
	if err != nil && ctx.Err() != nil {
		return nil, attempt{err: ctx.Err()}
	}
	if err != nil && wd.stalled() {
		return nil, attempt{err: p.stallError()}
	}
	perr := p.httpError(resp.StatusCode, data)
	a := attempt{err: perr, retryable: perr.Retryable()}
	if strings.EqualFold(resp.Header.Get("X-Should-Retry"), "false") {
		a.retryable = false // the server says a retry cannot help (OpenAI, Anthropic)
	}
	a.retryAfter, a.hasHint = retryHint(resp.Header, perr.Message, time.Now())
	return nil, a
}

// readError explains a failed body read: the caller's ctx ended, the watchdog fired,
// or the connection broke.
func (p *Provider) readError(ctx context.Context, x *exchange, err error) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case x.wd.stalled():
		return p.stallError()
	}
	return p.errorf(provider.KindStream, "connection lost mid-stream: %v", err)
}
