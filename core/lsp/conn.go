package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
)

// maxMessage bounds one JSON-RPC message a server may send (bytes): a larger
// Content-Length ends the connection instead of allocating it.
const maxMessage = 64 << 20

// errClosed is the error of a call on a connection whose server went away.
var errClosed = errors.New("language server connection closed")

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%s (code %d)", e.Message, e.Code) }

// wire is any JSON-RPC 2.0 message as read: a request (Method and ID), a
// notification (Method only) or a response (ID with Result or Error).
type wire struct {
	JSONRPC string           `json:"jsonrpc"`
	ID      *json.RawMessage `json:"id,omitempty"`
	Method  string           `json:"method,omitempty"`
	Params  json.RawMessage  `json:"params,omitempty"`
	Result  json.RawMessage  `json:"result,omitempty"`
	Error   *rpcError        `json:"error,omitempty"`
}

// response is what a pending call receives.
type response struct {
	result json.RawMessage
	err    error
}

// conn is a JSON-RPC 2.0 connection over the LSP base protocol: each message
// is "Content-Length: N\r\n\r\n" and N bytes of JSON. Server requests are
// answered by handle; notifications go to notify. Safe for concurrent use.
type conn struct {
	w   io.Writer
	wmu sync.Mutex

	mu    sync.Mutex
	next  int64
	calls map[int64]chan response
	err   error // set when the read loop ended

	// handle answers a request of the server (result or error).
	handle func(method string, params json.RawMessage) (any, error)
	// notify receives the server's notifications, on the read loop.
	notify func(method string, params json.RawMessage)
	done   chan struct{}
}

// newConn starts reading r; handle and notify must be set before.
func newConn(r io.Reader, w io.Writer, handle func(string, json.RawMessage) (any, error), notify func(string, json.RawMessage)) *conn {
	c := &conn{w: w, calls: map[int64]chan response{}, handle: handle, notify: notify, done: make(chan struct{})}
	go c.readLoop(bufio.NewReader(r))
	return c
}

// writeMessage frames and writes one message.
func (c *conn) writeMessage(v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return err
	}
	_, err = c.w.Write(body)
	return err
}

// readMessage reads one framed message (headers, a blank line, the body).
func readMessage(r *bufio.Reader) ([]byte, error) {
	tp := textproto.NewReader(r)
	h, err := tp.ReadMIMEHeader()
	if err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(h.Get("Content-Length")))
	if err != nil || n < 0 {
		return nil, fmt.Errorf("bad Content-Length header %q", h.Get("Content-Length"))
	}
	if n > maxMessage {
		return nil, fmt.Errorf("message of %d bytes is over the %d-byte limit", n, maxMessage)
	}
	body := make([]byte, n)
	_, err = io.ReadFull(r, body)
	return body, err
}

func (c *conn) readLoop(r *bufio.Reader) {
	var err error
	for {
		var body []byte
		if body, err = readMessage(r); err != nil {
			break
		}
		var m wire
		if json.Unmarshal(body, &m) != nil {
			continue // not JSON-RPC: skip it
		}
		switch {
		case m.Method != "" && m.ID != nil:
			go c.answer(*m.ID, m.Method, m.Params)
		case m.Method != "":
			c.notify(m.Method, m.Params)
		case m.ID != nil:
			var id int64
			if json.Unmarshal(*m.ID, &id) != nil {
				continue
			}
			c.mu.Lock()
			ch := c.calls[id]
			delete(c.calls, id)
			c.mu.Unlock()
			if ch != nil {
				res := response{result: m.Result}
				if m.Error != nil {
					res.err = m.Error
				}
				ch <- res
			}
		}
	}
	c.mu.Lock()
	c.err = fmt.Errorf("%w: %v", errClosed, err)
	for id, ch := range c.calls {
		ch <- response{err: c.err}
		delete(c.calls, id)
	}
	c.mu.Unlock()
	close(c.done)
}

// answer replies to one server request.
func (c *conn) answer(id json.RawMessage, method string, params json.RawMessage) {
	result, err := c.handle(method, params)
	reply := map[string]any{"jsonrpc": "2.0", "id": id}
	if err != nil {
		reply["error"] = rpcError{Code: -32601, Message: err.Error()}
	} else {
		reply["result"] = result
	}
	_ = c.writeMessage(reply)
}

// call sends a request and waits for its response (or ctx, or the end of the
// connection); the result is decoded into out when out is not nil.
func (c *conn) call(ctx context.Context, method string, params, out any) error {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return c.err
	}
	c.next++
	id := c.next
	ch := make(chan response, 1)
	c.calls[id] = ch
	c.mu.Unlock()
	if err := c.writeMessage(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		c.mu.Lock()
		delete(c.calls, id)
		c.mu.Unlock()
		return err
	}
	select {
	case res := <-ch:
		if res.err != nil || out == nil {
			return res.err
		}
		return json.Unmarshal(res.result, out)
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.calls, id)
		c.mu.Unlock()
		return ctx.Err()
	}
}

// notifyServer sends a notification.
func (c *conn) notifyServer(method string, params any) error {
	return c.writeMessage(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}
