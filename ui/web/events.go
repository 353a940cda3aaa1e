package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"pincer/core/event"
)

// streamBatch is how many events a stream reads from the log at once.
const streamBatch = 256

// streamEvents is GET /api/sessions/{id}/events: the session's log as
// Server-Sent Events, `id: SEQ`, `event: TYPE`, `data: FLATJSON` (the event's
// JSON as stream-json writes it), from after the Last-Event-ID header, else
// ?after=SEQ, else the start. It follows the log through the store (a turn
// another process runs streams too) at the client's own pace: each stream
// reads the log itself, so a slow client holds back nobody. A keep-alive
// comment comes after each KeepAlive without events; the stream ends when
// the client goes (or the server closes).
func (s *Server) streamEvents(w http.ResponseWriter, r *http.Request) {
	as, err := s.session(r)
	if err != nil {
		writeError(w, err)
		return
	}
	after, err := streamStart(r)
	if err != nil {
		writeError(w, err)
		return
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		writeError(w, errors.New("streaming is not supported by this connection"))
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	ctx, stop := context.WithCancel(r.Context())
	defer stop()
	go func() { // the server's Close ends every stream
		select {
		case <-s.ctx.Done():
			stop()
		case <-ctx.Done():
		}
	}()
	if _, err := fmt.Fprint(w, "retry: 1000\n\n"); err != nil {
		return
	}
	fl.Flush()
	_ = s.follow(ctx, as.ID, after, w, fl)
}

// streamStart is where a stream starts: Last-Event-ID, else ?after, else 0.
func streamStart(r *http.Request) (uint64, error) {
	if v := strings.TrimSpace(r.Header.Get("Last-Event-ID")); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return 0, errorf(http.StatusBadRequest, CodeBadRequest, "Last-Event-ID %q is not a sequence", v)
		}
		return n, nil
	}
	if v := r.URL.Query().Get("after"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return 0, errorf(http.StatusBadRequest, CodeBadRequest, "field after: %q is not a sequence", v)
		}
		return n, nil
	}
	return 0, nil
}

// follow writes the session's events after the cursor, batch by batch,
// flushing after each, and waits for more (a keep-alive comment after each
// idle KeepAlive) until ctx ends or a write fails. The events come from the
// session's shared tail (tail.go), or from the store while the cursor is
// older than the tail's window.
func (s *Server) follow(ctx context.Context, sessionID string, after uint64, w http.ResponseWriter, fl http.Flusher) error {
	t, release, err := s.tails.acquire(ctx, sessionID)
	if err != nil {
		return err
	}
	defer release()
	log := s.store.Log()
	keepAlive := time.NewTimer(s.opts.KeepAlive)
	defer keepAlive.Stop()
	var buf []byte
	for {
		frames, inWindow, changed, ferr := t.since(after, streamBatch)
		buf = buf[:0]
		switch {
		case !inWindow: // behind the window: from the store
			evs, err := log.Read(ctx, sessionID, after, streamBatch)
			if err != nil {
				return err
			}
			for _, ev := range evs {
				b, err := encodeFrame(ev)
				if err != nil {
					return err
				}
				buf = append(buf, b...)
				after = ev.Sequence
			}
		case len(frames) > 0:
			for _, f := range frames {
				buf = append(buf, f.data...)
			}
			after = frames[len(frames)-1].seq
		case ferr != nil: // the follower ended (the server closes, the store failed)
			return ferr
		}
		if len(buf) > 0 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			fl.Flush()
			keepAlive.Reset(s.opts.KeepAlive)
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-changed:
		case <-keepAlive.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return err
			}
			fl.Flush()
			keepAlive.Reset(s.opts.KeepAlive)
		}
	}
}

// appendEvent appends one event in SSE form: id, event, data (flat JSON has
// no raw newline), blank line.
func appendEvent(buf []byte, ev event.Event, data []byte) []byte {
	buf = append(buf, "id: "...)
	buf = strconv.AppendUint(buf, ev.Sequence, 10)
	buf = append(buf, "\nevent: "...)
	buf = append(buf, ev.Type...)
	buf = append(buf, "\ndata: "...)
	buf = append(buf, data...)
	return append(buf, "\n\n"...)
}
