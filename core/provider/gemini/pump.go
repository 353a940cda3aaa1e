package gemini

import (
	"context"
	"errors"
	"io"
	"net/http"

	"pincer/core/provider"
	"pincer/core/provider/internal/wire"
	"pincer/core/provider/sse"
)

// streamOnce runs one attempt of Stream: send the request, then pump the event stream
// (CRLF-framed, case 22/23) through the decoder to the consumer. The returned attempt
// is zero when the stream completed or the consumer stopped ranging.
func (p *Provider) streamOnce(ctx context.Context, endpoint string, body []byte, yield func(provider.Event, error) bool) wire.Attempt {
	x, a := p.caller.Open(ctx, func(actx context.Context) (*http.Request, error) {
		return p.newRequest(actx, endpoint, body)
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
		perr := d.feed([]byte(ev.Data))
		if !flush() {
			return wire.Attempt{}
		}
		if perr != nil {
			return wire.Fail(perr, d.delivered)
		}
	}
	if perr := d.end(); perr != nil {
		return wire.Fail(perr, d.delivered)
	}
	flush()
	return wire.Attempt{}
}
