package openai

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"

	"pincer/core/provider"
	"pincer/core/provider/internal/wire"
	"pincer/core/provider/sse"
)

// streamOnce runs one attempt of Stream: send the request, then pump the response body
// through the decoder to the consumer (wire.Caller.Pump), or decode it whole when it is
// a JSON document rather than an event stream. The returned attempt is zero when the
// stream completed or the consumer stopped ranging; otherwise it says whether anything
// was delivered (then the caller never retries).
func (p *Provider) streamOnce(ctx context.Context, body []byte, yield func(provider.Event, error) bool) wire.Attempt {
	c := &p.conn.Caller
	x, a := c.Open(ctx, p.conn.Request(http.MethodPost, p.conn.BaseURL+"/chat/completions", body, "text/event-stream"))
	if x == nil {
		return a
	}
	defer x.Close()

	d := &decoder{p: p}
	br := bufio.NewReaderSize(x.Body, 16<<10)
	if !startsWithJSON(br) {
		return c.Pump(ctx, x, br, d, yield)
	}
	// A JSON document, not an event stream: a server that ignored stream=true (a
	// completion whose choices carry "message"), or an {"error":...} answered with
	// status 200. The Content-Type is not trusted either way. Nothing was yielded
	// before this point, so every failure here may be retried.
	data, err := io.ReadAll(br)
	if err != nil {
		return wire.Fail(c.ReadError(ctx, x, err), false)
	}
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] == '[' {
		// Google's compatible endpoint wraps errors in an array.
		if info, ok := wire.ParseErrorBody(trimmed); ok && info.Message != "" {
			return wire.Fail(d.streamError(info, false), false)
		}
	}
	if _, perr := d.Feed(sse.Event{Type: sse.DefaultType, Data: string(data)}); perr != nil {
		return wire.Fail(perr, false)
	}
	d.sawDone = true
	if perr := d.End(); perr != nil {
		return wire.Fail(perr, false)
	}
	for _, ev := range d.Take() {
		if !yield(ev, nil) {
			break
		}
	}
	return wire.Attempt{}
}

// startsWithJSON reports whether the body's first non-blank byte opens a JSON object
// or array. An event stream never starts that way: its lines begin with a field name,
// a colon or a blank. Peeking blocks only until that first byte has arrived.
func startsWithJSON(br *bufio.Reader) bool {
	for n := 1; n <= 4096; n++ {
		b, err := br.Peek(n)
		if err != nil {
			return false
		}
		switch b[n-1] {
		case ' ', '\t', '\r', '\n':
			continue
		case '{', '[':
			return true
		}
		return false
	}
	return false
}
