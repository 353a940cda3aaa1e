package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// TestReadMessage: the base protocol's framing, table-driven: a body is read
// by its Content-Length whatever other headers come; a missing, bad or
// oversized length is an error.
func TestReadMessage(t *testing.T) {
	for _, tc := range []struct {
		name, in, body, err string
	}{
		{"plain", "Content-Length: 2\r\n\r\n{}", "{}", ""},
		{"content type too", "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 7\r\n\r\n{\"a\":1}", `{"a":1}`, ""},
		{"case", "content-length: 2\r\n\r\n[]", "[]", ""},
		{"missing", "Content-Type: x\r\n\r\n{}", "", "bad Content-Length"},
		{"not a number", "Content-Length: two\r\n\r\n{}", "", "bad Content-Length"},
		{"too big", "Content-Length: 999999999999\r\n\r\n", "", "limit"},
		{"short body", "Content-Length: 10\r\n\r\n{}", "", "EOF"},
	} {
		got, err := readMessage(bufio.NewReader(strings.NewReader(tc.in)))
		if tc.err == "" && (err != nil || string(got) != tc.body) {
			t.Errorf("%s: got %q, %v; want %q", tc.name, got, err, tc.body)
		}
		if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: got %q, %v; want an error with %q", tc.name, got, err, tc.err)
		}
	}
}

// TestConnRoundTrip: a call gets its response by id, a server request is
// answered, a notification is delivered, and a closed connection fails the
// pending call instead of hanging it.
func TestConnRoundTrip(t *testing.T) {
	cr, sw := io.Pipe() // server -> client
	sr, cw := io.Pipe() // client -> server
	notes := make(chan string, 4)
	c := newConn(cr, cw, func(method string, _ json.RawMessage) (any, error) { return "ok:" + method, nil },
		func(method string, _ json.RawMessage) { notes <- method })
	server := &conn{w: sw}
	in := bufio.NewReader(sr)
	go func() {
		body, _ := readMessage(in) // the client's call
		var m wire
		_ = json.Unmarshal(body, &m)
		_ = server.writeMessage(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "workspace/configuration", "params": map[string]any{}})
		_ = server.writeMessage(map[string]any{"jsonrpc": "2.0", "method": "window/logMessage", "params": map[string]any{}})
		_ = server.writeMessage(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"v": 42}})
		body, _ = readMessage(in) // the client's answer to request 7
		notes <- string(body)
		body, _ = readMessage(in) // a second call, never answered
		sw.Close()
	}()
	var out struct{ V int }
	if err := c.call(context.Background(), "initialize", nil, &out); err != nil || out.V != 42 {
		t.Fatalf("call: %+v %v", out, err)
	}
	got := map[string]bool{}
	for range 2 {
		select {
		case n := <-notes:
			got[n] = true
		case <-time.After(5 * time.Second):
			t.Fatal("no notification or answer")
		}
	}
	if !got["window/logMessage"] || !got[`{"id":7,"jsonrpc":"2.0","result":"ok:workspace/configuration"}`] {
		t.Errorf("got %v", got)
	}
	if err := c.call(context.Background(), "shutdown", nil, nil); err == nil {
		t.Fatal("a call on a closed connection succeeded")
	}
}
