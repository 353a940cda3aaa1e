package wire

import (
	"context"
	"errors"
	"io"
	"net/http"

	"pincer/core/provider"
	"pincer/core/provider/sse"
)

// Decoder is an adapter's decode of one event stream into provider events: a state
// machine with no I/O, fed one Server-Sent Event at a time, whose produced events
// wait in it until taken.
type Decoder interface {
	// Feed handles one event. done reports that the stream is complete (a
	// "[DONE]", a response.completed): nothing more is read. err is an error the
	// stream reported or a malformed event; it ends the stream.
	Feed(ev sse.Event) (done bool, err *provider.Error)
	// End is called once after done or at the end of the body: it may produce the
	// last events (pending tool calls, EventDone), or report a stream that was cut
	// off before completing.
	End() *provider.Error
	// Take returns the events produced since the last Take and forgets them.
	Take() []provider.Event
}

// SSE is one attempt of a streaming adapter: it sends the request that build makes
// (Caller.Open) and pumps the response body through dec (Pump).
func (c *Caller) SSE(ctx context.Context, build func(context.Context) (*http.Request, error), dec Decoder, yield func(provider.Event, error) bool) Attempt {
	x, a := c.Open(ctx, build)
	if x == nil {
		return a
	}
	defer x.Close()
	return c.Pump(ctx, x, x.Body, dec, yield)
}

// Pump reads body, the watched body of exchange x or a reader over it, as
// Server-Sent Events (package sse) and runs them through dec, handing the events it
// produces to yield after each Feed. The stream ends at done, at the end of body
// (then End runs), at an error, or when yield returns false.
//
// The returned Attempt is zero when the stream completed or the consumer stopped
// ranging; otherwise it carries the error, and whether anything was already
// delivered (then Retry.Do never retries). A failed read is explained by
// Caller.ReadError: the caller's ctx, the stall watchdog, or a lost connection.
func (c *Caller) Pump(ctx context.Context, x *Exchange, body io.Reader, dec Decoder, yield func(provider.Event, error) bool) Attempt {
	delivered := false
	flush := func() bool {
		for _, ev := range dec.Take() {
			delivered = true
			if !yield(ev, nil) {
				return false
			}
		}
		return true
	}
	rd := sse.NewReader(body)
	for {
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Fail(c.ReadError(ctx, x, err), delivered)
		}
		done, perr := dec.Feed(ev)
		if !flush() {
			return Attempt{}
		}
		if perr != nil {
			return Fail(perr, delivered)
		}
		if done {
			break // do not wait for the server to close
		}
	}
	if perr := dec.End(); perr != nil {
		return Fail(perr, delivered)
	}
	flush()
	return Attempt{}
}
