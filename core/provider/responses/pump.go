package responses

import (
	"context"
	"errors"
	"io"
	"net/http"

	"pincer/core/provider"
	"pincer/core/provider/internal/wire"
	"pincer/core/provider/sse"
)

// streamOnce runs one attempt of Stream: send the request, then pump the named events
// through the decoder to the consumer. The returned attempt is zero when the stream
// completed or the consumer stopped ranging.
func (p *Provider) streamOnce(ctx context.Context, body []byte, yield func(provider.Event, error) bool) wire.Attempt {
	x, a := p.caller.Open(ctx, func(actx context.Context) (*http.Request, error) {
		return p.newRequest(actx, body)
	})
	if x == nil {
		return a
	}
	defer x.Close()

	d := &decoder{name: p.name}
	flush := func() bool {
		for _, ev := range d.take() {
			if !yield(ev, nil) {
				return false
			}
		}
		return true
	}
	rd := sse.NewReader(x.Body)
	for {
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return wire.Fail(p.caller.ReadError(ctx, x, err), d.delivered)
		}
		done, perr := d.feed(ev.Type, ev.Data)
		if !flush() {
			return wire.Attempt{}
		}
		if perr != nil {
			return wire.Fail(perr, d.delivered)
		}
		if done {
			return wire.Attempt{} // response.completed: do not wait for the server to close
		}
	}
	return wire.Fail(p.caller.Errorf(provider.KindStream, "stream ended before completion (no response.completed)"), d.delivered)
}
