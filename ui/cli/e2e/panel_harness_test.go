package e2e

// The harness of the web panel's browser tests: `pincer serve` (the real
// binary) in the env's repository against its fake provider, and waits on the
// page of a headless Chromium (ui/web/webtest).

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"pincer/ui/web/webtest"
)

// served is a running `pincer serve`: the URL it printed (with its token) and
// what it logged.
type served struct {
	url    string
	mu     sync.Mutex
	stderr strings.Builder
}

func (s *served) log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stderr.String()
}

type lockedWriter struct{ s *served }

func (w lockedWriter) Write(p []byte) (int, error) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	return w.s.stderr.Write(p)
}

// serve starts `pincer serve` in e's repository and returns once it printed
// its URL; the process gets SIGTERM (then SIGKILL) at the test's end.
func (e *env) serve(extra ...string) *served {
	e.t.Helper()
	s := &served{}
	cmd := e.command(append([]string{"serve", "--base-url", e.fake.BaseURL(), "--no-sandbox"}, extra...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	cmd.Stderr = lockedWriter{s}
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	e.t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if e.t.Failed() {
			e.t.Logf("pincer serve stderr:\n%s", s.log())
		}
	})
	lines := make(chan [2]string, 1)
	go func() {
		r := bufio.NewReader(out)
		line, _ := r.ReadString('\n')
		file, _ := r.ReadString('\n')
		lines <- [2]string{line, file}
		_, _ = io.Copy(io.Discard, r)
	}()
	select {
	case l := <-lines:
		// Its stdout is a pipe: no code and no token printed, the token is
		// read from the token file (as a person would).
		const prefix = "pincer serve: "
		base, _, _ := strings.Cut(strings.TrimPrefix(l[0], prefix), " ")
		path, ok := strings.CutPrefix(strings.TrimSpace(l[1]), "token file: ")
		if !strings.HasPrefix(l[0], prefix+"http://127.0.0.1:") || strings.Contains(l[0], "login=") || !ok {
			e.t.Fatalf("pincer serve printed %q; stderr:\n%s", l, s.log())
		}
		token, err := os.ReadFile(path)
		if err != nil {
			e.t.Fatalf("token file: %v", err)
		}
		s.url = strings.TrimSuffix(base, "/") + "/?token=" + strings.TrimSpace(string(token))
	case <-done:
		e.t.Fatalf("pincer serve exited before printing its URL; stderr:\n%s", s.log())
	case <-time.After(20 * time.Second):
		e.t.Fatalf("pincer serve printed no URL in 20 s; stderr:\n%s", s.log())
	}
	return s
}

// waitJS polls the JavaScript condition cond (an expression) in the page
// every 50 ms until it is true, failing t with what (and the page's text)
// after limit.
func waitJS(ctx context.Context, t *testing.T, limit time.Duration, what, cond string) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		if webtest.Eval[bool](ctx, t, "!!("+cond+")") {
			return
		}
		if time.Now().After(deadline) {
			body := webtest.Eval[string](ctx, t, `document.body.innerText`)
			t.Fatalf("waited %v for %s (%s); the page says:\n%s", limit, what, cond, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitFile polls until the repository's file name holds want.
func (e *env) waitFile(name, want string, limit time.Duration) {
	e.t.Helper()
	deadline := time.Now().Add(limit)
	for {
		b, _ := os.ReadFile(e.repo + "/" + name)
		if string(b) == want {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%s = %q after %v, want %q", name, b, limit, want)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// jsq quotes s as a JavaScript string literal (JSON is one).
func jsq(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
