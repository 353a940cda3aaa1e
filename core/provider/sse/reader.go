// Package sse reads Server-Sent Events as the WHATWG HTML specification defines the
// text/event-stream format (section "Server-sent events", "Parsing an event stream").
//
// The contract:
//   - Lines end in LF, CR or CRLF, freely mixed. A CR at the end of one read and an LF
//     at the start of the next still form a single CRLF.
//   - A leading UTF-8 byte order mark is skipped once.
//   - Lines starting with ':' are comments and are ignored (OpenRouter's
//     ": OPENROUTER PROCESSING" keep-alives, ": ping").
//   - "field:value" lines: one leading space of the value is removed. A line without a
//     colon is a field with an empty value. Unknown fields, and "retry", are ignored.
//   - "data" lines append to the event's data; several are joined with "\n".
//   - "event" sets the event type for the event being built; "id" sets the last event
//     ID, which persists across events (unless the value contains U+0000, then the line
//     is ignored).
//   - A blank line dispatches the event, unless no data line was seen (then the type is
//     reset and nothing is dispatched).
//   - Deviation from the specification, on purpose: at end of input an event that has
//     data but no closing blank line is still dispatched. Real providers end streams
//     that way (a missing final blank line, a missing "data: [DONE]").
//
// Lines have no length limit (the reader grows its buffer rather than failing the way
// bufio.Scanner does at 64 KiB); memory use is bounded only by the largest event.
package sse

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Event is one dispatched server-sent event.
type Event struct {
	// Type is the value of the last "event" field of the event, or "message" when the
	// event had none (the specification's default type).
	Type string
	// Data is the concatenation of the event's "data" values, joined with "\n".
	Data string
	// ID is the last event ID seen so far in the stream (it carries over to later
	// events that have no "id" field), or "" if none was ever set.
	ID string
}

// DefaultType is the Type of an event that had no "event" field.
const DefaultType = "message"

// Reader parses a text/event-stream. It is not safe for concurrent use.
type Reader struct {
	br *bufio.Reader

	line      []byte // the line being assembled; reused between lines
	skipLF    bool   // the previous line ended in CR: drop an LF that follows
	bomDone   bool   // the optional byte order mark has been handled
	eof       bool   // the underlying reader is exhausted
	data      bytes.Buffer
	hasData   bool // at least one data field was seen in the pending event
	eventType string
	lastID    string
}

// NewReader returns a Reader that reads events from r. Reads from r are buffered.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 16<<10)}
}

// Next returns the next event. At the end of input it returns io.EOF (after
// dispatching a final event that lacked its closing blank line); any other error from
// the underlying reader is returned as is, and the pending event is dropped.
func (r *Reader) Next() (Event, error) {
	for {
		if r.eof {
			return Event{}, io.EOF
		}
		line, err := r.readLine()
		if err != nil {
			if errors.Is(err, io.EOF) {
				r.eof = true
				if r.hasData {
					return r.dispatch(), nil
				}
				return Event{}, io.EOF
			}
			return Event{}, err
		}
		if len(line) == 0 {
			if r.hasData {
				return r.dispatch(), nil
			}
			r.eventType = ""
			continue
		}
		r.processField(line)
	}
}

// dispatch builds the pending event and resets the per-event buffers.
func (r *Reader) dispatch() Event {
	ev := Event{Type: r.eventType, Data: r.data.String(), ID: r.lastID}
	if ev.Type == "" {
		ev.Type = DefaultType
	}
	r.data.Reset()
	r.hasData = false
	r.eventType = ""
	return ev
}

// processField applies one non-blank line to the pending event.
func (r *Reader) processField(line []byte) {
	if line[0] == ':' {
		return // comment
	}
	field, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		field, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(field) {
	case "data":
		if r.hasData {
			r.data.WriteByte('\n')
		}
		r.data.Write(value)
		r.hasData = true
	case "event":
		r.eventType = string(value)
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			r.lastID = string(value)
		}
	}
}

// readLine returns the next line without its terminator. The returned slice is valid
// until the next call. At end of input a final unterminated line is returned first;
// then io.EOF.
func (r *Reader) readLine() ([]byte, error) {
	r.line = r.line[:0]
	for {
		if r.skipLF {
			b, err := r.br.ReadByte()
			if err != nil {
				return nil, err
			}
			r.skipLF = false
			if b != '\n' {
				_ = r.br.UnreadByte()
			}
		}
		if !r.bomDone {
			if err := r.skipBOM(); err != nil {
				return nil, err
			}
		}
		if r.br.Buffered() == 0 {
			if _, err := r.br.Peek(1); err != nil {
				if errors.Is(err, io.EOF) && len(r.line) > 0 {
					return r.line, nil
				}
				return nil, err
			}
		}
		buf, _ := r.br.Peek(r.br.Buffered())
		i := bytes.IndexAny(buf, "\r\n")
		if i < 0 {
			r.line = append(r.line, buf...)
			_, _ = r.br.Discard(len(buf))
			continue
		}
		r.line = append(r.line, buf[:i]...)
		r.skipLF = buf[i] == '\r'
		_, _ = r.br.Discard(i + 1)
		return r.line, nil
	}
}

// skipBOM drops a UTF-8 byte order mark at the very start of the stream. It peeks one
// byte at a time so that it never waits for bytes a live stream has not sent yet unless
// they could complete a mark.
func (r *Reader) skipBOM() error {
	r.bomDone = true
	const bom = "\xEF\xBB\xBF"
	for n := 1; n <= len(bom); n++ {
		b, err := r.br.Peek(n)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if b[n-1] != bom[n-1] {
			return nil
		}
	}
	_, _ = r.br.Discard(len(bom))
	return nil
}
