package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/app"
	"pincer/core/provider/openai/openaitest"
)

// testEnv is one server over a real Prepare'd Run: a temporary git
// repository, a private PINCER_HOME (its own store), the scripted Chat
// Completions server as the model, and the server on a loopback httptest
// listener.
type testEnv struct {
	t     testing.TB
	repo  string
	home  string
	fake  *openaitest.Server
	store *app.SharedStore
	srv   *Server
	hs    *httptest.Server
	token string
}

// newTestEnv starts it; replies are the model's script.
func newTestEnv(t testing.TB, replies ...openaitest.Reply) *testEnv {
	t.Helper()
	return newTestEnvWith(t, nil, replies...)
}

// newTestEnvWith is newTestEnv with prep applied to the httptest server
// before it starts (its Listener, say).
func newTestEnvWith(t testing.TB, prep func(*httptest.Server), replies ...openaitest.Reply) *testEnv {
	t.Helper()
	e := &testEnv{t: t, repo: gitRepo(t), home: t.TempDir(), fake: openaitest.New(replies...)}
	t.Cleanup(e.fake.Close)
	t.Setenv("PINCER_HOME", e.home)
	t.Setenv("PINCER_API_KEY", "test-key")
	t.Setenv("PINCER_MODEL", "fake/test-model")
	store, err := app.OpenSharedStore()
	if err != nil {
		t.Fatal(err)
	}
	e.store = store
	e.token, err = NewToken()
	if err != nil {
		t.Fatal(err)
	}
	e.hs = httptest.NewUnstartedServer(nil)
	e.srv = New(store, Options{Base: app.Options{BaseURL: e.fake.BaseURL(), NoSandbox: true},
		Token: e.token, Addr: e.hs.Listener.Addr().String(), KeepAlive: 200 * time.Millisecond,
		Logf: t.Logf})
	e.hs.Config.Handler = e.srv.Handler()
	if prep != nil {
		prep(e.hs)
	}
	e.hs.Start()
	t.Cleanup(func() {
		e.hs.CloseClientConnections()
		if err := e.srv.Close(nil); err != nil {
			t.Errorf("Close: %v", err)
		}
		e.hs.Close()
		_ = store.Close()
	})
	return e
}

// gitRepo is a temporary git repository with hello.txt committed.
func gitRepo(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello world\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."},
		{"-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "init"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// request builds a request to path with the token (unless hdr sets
// Authorization, "" to send none), body as JSON when not nil.
func (e *testEnv) request(method, path string, body any, hdr map[string]string) *http.Request {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, e.hs.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+e.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		switch {
		case k == "Host":
			req.Host = v
		case v == "":
			req.Header.Del(k)
		default:
			req.Header.Set(k, v)
		}
	}
	return req
}

// noRedirect is a client that returns redirects instead of following them.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	Timeout: 30 * time.Second}

// do sends the request and returns the response and its body.
func (e *testEnv) do(method, path string, body any, hdr map[string]string) (*http.Response, []byte) {
	e.t.Helper()
	resp, err := noRedirect.Do(e.request(method, path, body, hdr))
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp, b
}

// call is do expecting status, decoding the JSON answer into out (when not nil).
func (e *testEnv) call(method, path string, body any, status int, out any) []byte {
	e.t.Helper()
	resp, b := e.do(method, path, body, nil)
	if resp.StatusCode != status {
		e.t.Fatalf("%s %s = %d %s, want %d", method, path, resp.StatusCode, b, status)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			e.t.Fatalf("%s %s: %v in %s", method, path, err, b)
		}
	}
	return b
}

// errorCode is the code of a JSON error body ("" when it is not one).
func errorCode(b []byte) string {
	var body struct {
		Error struct{ Code, Message string }
	}
	_ = json.Unmarshal(b, &body)
	return body.Error.Code
}

// newSession creates a session in the repository and returns its ID.
func (e *testEnv) newSession() string {
	e.t.Helper()
	var s Session
	e.call("POST", "/api/sessions", map[string]string{"cwd": e.repo}, http.StatusCreated, &s)
	if s.ID == "" || s.Cwd == "" {
		e.t.Fatalf("created session %+v", s)
	}
	return s.ID
}

// sseEvent is one event of a stream.
type sseEvent struct {
	ID, Type, Data string
}

// sseStream is an open event stream.
type sseStream struct {
	resp *http.Response
	rd   *bufio.Reader
	// Retry is the retry: field seen, Comments the comment lines.
	Retry    string
	Comments int
}

// stream opens the session's event stream with hdr (Last-Event-ID) and
// query (after=N).
func (e *testEnv) stream(ctx context.Context, id, query string, hdr map[string]string) *sseStream {
	e.t.Helper()
	path := "/api/sessions/" + id + "/events"
	if query != "" {
		path += "?" + query
	}
	req := e.request("GET", path, nil, hdr).WithContext(ctx)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		e.t.Fatalf("events: %d %s", resp.StatusCode, b)
	}
	e.t.Cleanup(func() { resp.Body.Close() })
	return &sseStream{resp: resp, rd: bufio.NewReader(resp.Body)}
}

// next reads the next event (comments and retry lines counted, skipped).
func (s *sseStream) next() (sseEvent, error) {
	var ev sseEvent
	for {
		line, err := s.rd.ReadString('\n')
		if err != nil {
			return ev, err
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "":
			if ev.Type != "" || ev.Data != "" {
				return ev, nil
			}
		case strings.HasPrefix(line, ":"):
			s.Comments++
		case strings.HasPrefix(line, "retry: "):
			s.Retry = strings.TrimPrefix(line, "retry: ")
		case strings.HasPrefix(line, "id: "):
			ev.ID = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "event: "):
			ev.Type = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			ev.Data = strings.TrimPrefix(line, "data: ")
		}
	}
}

// until reads events until one of type typ (included).
func (s *sseStream) until(t testing.TB, typ string) []sseEvent {
	t.Helper()
	var out []sseEvent
	for {
		ev, err := s.next()
		if err != nil {
			t.Fatalf("stream ended before %s (after %d events): %v", typ, len(out), err)
		}
		out = append(out, ev)
		if ev.Type == typ {
			return out
		}
	}
}

// ioNopCloser is a request body of s.
func ioNopCloser(s string) io.ReadCloser { return io.NopCloser(strings.NewReader(s)) }

// readAll reads and closes a response body.
func readAll(t *testing.T, r *http.Response) []byte {
	t.Helper()
	defer r.Body.Close()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
