package openai

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"

	"pincer/core/provider"
	"pincer/core/provider/internal/wire"
	"pincer/core/provider/sse"
)

// streamOnce runs one attempt of Stream: send the request, then pump the response body
// through the decoder to the consumer. The returned attempt is zero when the stream
// completed or the consumer stopped ranging; otherwise it says whether anything was
// delivered (then the caller never retries).
func (p *Provider) streamOnce(ctx context.Context, body []byte, yield func(provider.Event, error) bool) wire.Attempt {
	x, a := p.caller.Open(ctx, p.request(http.MethodPost, "/chat/completions", body, "text/event-stream"))
	if x == nil {
		return a
	}
	defer x.Close()

	d := &decoder{p: p}
	delivered := false
	// flush hands the decoder's pending events to the consumer; false: it stopped.
	flush := func() bool {
		for _, ev := range d.take() {
			delivered = true
			if !yield(ev, nil) {
				return false
			}
		}
		return true
	}
	fail := func(err error) wire.Attempt { return wire.Fail(err, delivered) }

	br := bufio.NewReaderSize(x.Body, 16<<10)
	if startsWithJSON(br) {
		// A JSON document, not an event stream: a server that ignored stream=true
		// (a completion whose choices carry "message"), or an {"error":...} answered
		// with status 200. The Content-Type is not trusted either way.
		data, err := io.ReadAll(br)
		if err != nil {
			return fail(p.caller.ReadError(ctx, x, err))
		}
		if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] == '[' {
			// Google's compatible endpoint wraps errors in an array.
			if info, ok := wire.ParseErrorBody(trimmed); ok && info.Message != "" {
				return fail(d.streamError(info, false))
			}
		}
		if _, perr := d.feed(sse.Event{Type: sse.DefaultType, Data: string(data)}); perr != nil {
			return fail(perr)
		}
		d.sawDone = true
		if perr := d.end(); perr != nil {
			return fail(perr)
		}
		flush()
		return wire.Attempt{}
	}

	rd := sse.NewReader(br)
	for {
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fail(p.caller.ReadError(ctx, x, err))
		}
		done, perr := d.feed(ev)
		if !flush() {
			return wire.Attempt{}
		}
		if perr != nil {
			return fail(perr)
		}
		if done {
			break // "[DONE]": do not wait for the server to close
		}
	}
	if perr := d.end(); perr != nil {
		return fail(perr)
	}
	flush()
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
