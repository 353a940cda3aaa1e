// Package streamcase loads test payloads for every provider sub-package, in one file
// format ("header", a line "---", the payload byte for byte), from two places:
//
//   - Fixture: the package's own testdata/ directory, written for the package in the
//     real wire format. Always there: the tests a fresh clone runs.
//   - Load: the captured third-party streams of shared/cases/streams (see its
//     INDEX.md), a conformance suite. The shared directory sits beside the
//     repository clone (/work/shared next to /work/main, and the same in CI); Dir
//     finds it by walking up from the test's working directory. Without it a test
//     that loads a capture is skipped, and Main prints one line saying how many
//     captures were skipped.
package streamcase

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// tally records the captures the tests of this test binary asked for, by name:
// true when found, false when skipped.
var tally = struct {
	sync.Mutex
	names map[string]bool
}{names: map[string]bool{}}

func record(name string, found bool) {
	tally.Lock()
	defer tally.Unlock()
	tally.names[name] = tally.names[name] || found
}

// Main runs the tests of a provider package (call it from TestMain) and then, when
// the tests asked for any capture, prints one line saying how many of them were
// skipped because shared/cases/streams is absent: "conformance: 19 of 19 captures
// skipped: ..." (or "conformance: 0 of 19 captures skipped"). `make test` adds the
// lines of the packages up. It returns m.Run's exit code.
func Main(m *testing.M) int {
	code := m.Run()
	tally.Lock()
	defer tally.Unlock()
	skipped := 0
	for _, found := range tally.names {
		if !found {
			skipped++
		}
	}
	switch {
	case skipped > 0:
		fmt.Printf("conformance: %d of %d captures skipped: no shared/cases/streams beside the repository\n", skipped, len(tally.names))
	case len(tally.names) > 0:
		fmt.Printf("conformance: 0 of %d captures skipped\n", len(tally.names))
	}
	return code
}

// find returns shared/cases/streams above the working directory, or "".
func find() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for dir := wd; ; {
		candidate := filepath.Join(dir, "shared", "cases", "streams")
		if st, err := os.Stat(candidate); err == nil && st.IsDir() {
			return candidate
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Dir returns the absolute path of shared/cases/streams, found by walking up from the
// working directory until a directory holding shared/cases/streams appears. When
// none is found (a fresh clone without shared/ beside it) it skips the test
// silently (Main counts the skipped captures): the captures are a conformance suite
// on top of the packages' own fixtures, never a requirement of `make test`.
func Dir(t testing.TB) string {
	t.Helper()
	dir := find()
	if dir == "" {
		t.SkipNow()
	}
	return dir
}

// Case is one capture file split at its first line that is exactly "---".
type Case struct {
	Name    string // file name, e.g. "01-openai-chat-text-usage-chunk.txt"
	Header  string // the human-written header: source, quirk, expected parse
	Payload []byte // everything after the "---" line, byte for byte
}

// Load reads the named capture from Dir and splits it. It skips the test when
// shared/cases/streams is absent (counted by Main) and calls t.Fatal when the file
// is missing or has no "---" line.
func Load(t testing.TB, name string) Case {
	t.Helper()
	dir := find()
	record(name, dir != "")
	if dir == "" {
		t.SkipNow()
	}
	return read(t, filepath.Join(dir, name))
}

// Optional returns the named capture when shared/cases/streams is there; otherwise
// ok is false and the capture is counted as skipped, the test going on (a fuzz
// target's seeds).
func Optional(t testing.TB, name string) (c Case, ok bool) {
	t.Helper()
	dir := find()
	record(name, dir != "")
	if dir == "" {
		return Case{}, false
	}
	return read(t, filepath.Join(dir, name)), true
}

// Fixture reads the named file of the package's own testdata directory, in the
// capture format, and splits it. It calls t.Fatal when the file is missing or has
// no "---" line.
func Fixture(t testing.TB, name string) Case {
	t.Helper()
	return read(t, filepath.Join("testdata", name))
}

// Open loads file as Fixture when it starts with "testdata/" and as a capture (Load)
// otherwise, so that one table of cases can hold both.
func Open(t testing.TB, file string) Case {
	t.Helper()
	if name, ok := strings.CutPrefix(file, "testdata/"); ok {
		return Fixture(t, name)
	}
	return Load(t, file)
}

// Fixtures returns the names of the package's testdata files ending in suffix
// (".txt"), sorted.
func Fixtures(t testing.TB, suffix string) []string {
	t.Helper()
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatalf("streamcase: %v", err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), suffix) {
			names = append(names, e.Name())
		}
	}
	return names
}

// read loads one file and splits it at its first line that is exactly "---".
func read(t testing.TB, path string) Case {
	t.Helper()
	name := filepath.Base(path)
	raw, err := os.ReadFile(path)
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
