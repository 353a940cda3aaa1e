// Package streamcase loads the captured provider payloads of shared/cases/streams (see
// its INDEX.md) for tests of every provider sub-package.
//
// The shared directory sits beside the repository clone (/work/shared next to
// /work/main, and the same in CI). Dir finds it by walking up from the test's working
// directory; a missing directory fails the test, it never skips it.
package streamcase

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Dir returns the absolute path of shared/cases/streams, found by walking up from the
// working directory until a directory holding shared/cases/streams appears. When
// none is found (a fresh clone without shared/ beside it) it skips the test with one
// line saying so: the captures are a conformance suite on top of the packages' own
// fixtures, never a requirement of `make test`.
func Dir(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatalf("streamcase: working directory: %v", err)
	}
	for dir := wd; ; {
		candidate := filepath.Join(dir, "shared", "cases", "streams")
		if st, err := os.Stat(candidate); err == nil && st.IsDir() {
			return candidate
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skipf("streamcase: no shared/cases/streams above %s: conformance capture skipped (put shared/ beside the repository to run it)", wd)
		}
		dir = parent
	}
}

// Case is one capture file split at its first line that is exactly "---".
type Case struct {
	Name    string // file name, e.g. "01-openai-chat-text-usage-chunk.txt"
	Header  string // the human-written header: source, quirk, expected parse
	Payload []byte // everything after the "---" line, byte for byte
}

// Load reads the named file from Dir and splits it. It calls t.Fatal when the file is
// missing or has no "---" line.
func Load(t testing.TB, name string) Case {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(Dir(t), name))
	if err != nil {
		t.Fatalf("streamcase: %v", err)
	}
	var header, payload []byte
	switch {
	case bytes.HasPrefix(raw, []byte("---\n")):
		payload = raw[len("---\n"):]
	default:
		i := bytes.Index(raw, []byte("\n---\n"))
		if i < 0 {
			t.Fatalf("streamcase: %s has no line exactly \"---\"", name)
		}
		header, payload = raw[:i+1], raw[i+len("\n---\n"):]
	}
	return Case{Name: name, Header: string(header), Payload: payload}
}

// Response is a captured HTTP response: the status line's code, the header lines and
// the body, byte for byte.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// ParseResponse parses a payload holding "HTTP/x status reason", header lines and a
// blank line (CRLF), then the body. Header lines are "name: value". It calls t.Fatal on
// a malformed payload.
func ParseResponse(t testing.TB, payload []byte) Response {
	t.Helper()
	head, body, ok := bytes.Cut(payload, []byte("\r\n\r\n"))
	if !ok {
		t.Fatalf("streamcase: response has no blank CRLF line after its headers")
	}
	lines := strings.Split(string(head), "\r\n")
	fields := strings.Fields(lines[0])
	if len(fields) < 2 || !strings.HasPrefix(fields[0], "HTTP/") {
		t.Fatalf("streamcase: bad status line %q", lines[0])
	}
	status, err := strconv.Atoi(fields[1])
	if err != nil {
		t.Fatalf("streamcase: bad status in %q", lines[0])
	}
	h := http.Header{}
	for _, l := range lines[1:] {
		name, value, ok := strings.Cut(l, ":")
		if !ok {
			t.Fatalf("streamcase: bad header line %q", l)
		}
		h.Add(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	return Response{Status: status, Header: h, Body: body}
}

// Serve writes the captured response to w: its headers (except the framing ones,
// Content-Length, Transfer-Encoding and Connection, which the test server sets for the
// body it actually sends), its status and its body.
func (r Response) Serve(w http.ResponseWriter) {
	for name, values := range r.Header {
		switch http.CanonicalHeaderKey(name) {
		case "Content-Length", "Transfer-Encoding", "Connection":
			continue
		}
		for _, v := range values {
			w.Header().Add(name, v)
		}
	}
	w.WriteHeader(r.Status)
	_, _ = w.Write(r.Body)
}
