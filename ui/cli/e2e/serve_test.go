package e2e

// `pincer serve` end to end: the real binary in the env's repository against
// its fake provider — the printed URL and token file, the token login, a
// session, a turn over HTTP streamed over SSE, SIGTERM (the token file
// removed).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// serveProc is a running `pincer serve`: its base URL, token, token file.
type serveProc struct {
	cmd       *exec.Cmd
	base      string // http://127.0.0.1:PORT
	token     string
	tokenFile string
	done      chan struct{}
	mu        sync.Mutex
	stderr    bytes.Buffer
}

func (p *serveProc) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

type serveLog struct{ p *serveProc }

func (w serveLog) Write(b []byte) (int, error) {
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	return w.p.stderr.Write(b)
}

// startServe starts `pincer serve ARGS` in the repository and returns once
// it printed its three lines (the login URL, the token, the token file); it is stopped (SIGTERM) at the test's end.
func (e *env) startServe(args ...string) *serveProc {
	e.t.Helper()
	p := &serveProc{cmd: e.command(append([]string{"serve"}, args...)...), done: make(chan struct{})}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	p.cmd.Stderr = serveLog{p}
	if err := p.cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	e.t.Cleanup(func() {
		p.stop(e.t)
		if e.t.Failed() {
			e.t.Logf("pincer serve stderr:\n%s", p.log())
		}
	})
	lines := make(chan []string, 1)
	go func() {
		r := bufio.NewReader(out)
		a, _ := r.ReadString('\n')
		b, _ := r.ReadString('\n')
		lines <- []string{a, b}
		_, _ = io.Copy(io.Discard, r)
	}()
	select {
	case l := <-lines:
		// stdout is a pipe, not a terminal: the URL without a login code
		// and the token file's path, never the token.
		rest, ok := strings.CutPrefix(strings.TrimSpace(l[0]), "pincer serve: ")
		rest, _, _ = strings.Cut(rest, " ")
		u, err := url.Parse(rest)
		if !ok || err != nil || u.Path != "/" || u.RawQuery != "" || !strings.HasPrefix(u.Host, "127.0.0.1:") {
			e.t.Fatalf("first line %q", l[0])
		}
		p.base = "http://" + u.Host
		p.tokenFile, ok = strings.CutPrefix(strings.TrimSpace(l[1]), "token file: ")
		if !ok {
			e.t.Fatalf("second line %q", l[1])
		}
		b, err := os.ReadFile(p.tokenFile)
		if p.token = strings.TrimSpace(string(b)); err != nil || len(p.token) != 64 {
			e.t.Fatalf("token file %s: %q %v", p.tokenFile, b, err)
		}
	case <-p.done:
		e.t.Fatalf("pincer serve exited: %s", p.log())
	case <-time.After(30 * time.Second):
		e.t.Fatalf("pincer serve printed nothing in 30 s: %s", p.log())
	}
	return p
}

// stop sends SIGTERM and waits for the exit (SIGKILL after 20 s).
func (p *serveProc) stop(t *testing.T) {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(20 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
		t.Errorf("pincer serve did not stop on SIGTERM")
	}
}

// api calls the server with the token; body (when not nil) as JSON.
func (p *serveProc) api(t *testing.T, method, path string, body any, out any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, p.base+path, rd)
	req.Header.Set("Authorization", "Bearer "+p.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, b)
		}
	}
	return resp.StatusCode
}

// sseLines opens a session's event stream and returns a channel of its
// events as "TYPE DATA" (closed when it ends).
func (p *serveProc) sseLines(t *testing.T, ctx context.Context, id string) <-chan [2]string {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", p.base+"/api/sessions/"+id+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+p.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("events: %v %v", resp, err)
	}
	ch := make(chan [2]string, 64)
	go func() {
		defer close(ch)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var typ string
		for sc.Scan() {
			line := sc.Text()
			if v, ok := strings.CutPrefix(line, "event: "); ok {
				typ = v
			}
			if v, ok := strings.CutPrefix(line, "data: "); ok {
				ch <- [2]string{typ, v}
			}
		}
	}()
	return ch
}

// TestServeEndToEnd: the token file's token logs in (?token=), the token file
// holds the token (0600), a turn submitted over HTTP streams over SSE to
// its end, and SIGTERM stops the server and removes the token file.
func TestServeEndToEnd(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Text: "hello over the web"})
	p := e.startServe("--base-url", e.fake.BaseURL(), "--no-sandbox")
	fi, err := os.Stat(p.tokenFile)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file %s: %v %v", p.tokenFile, fi, err)
	}
	if b, _ := os.ReadFile(p.tokenFile); strings.TrimSpace(string(b)) != p.token {
		t.Fatalf("token file holds %q", b)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(p.base + "/?token=" + p.token) // the token's own login stays
	if err != nil || resp.StatusCode != http.StatusSeeOther || len(resp.Cookies()) != 1 {
		t.Fatalf("login: %v %v", resp, err)
	}
	resp.Body.Close()
	var s struct{ ID string }
	if code := p.api(t, "POST", "/api/sessions", map[string]string{"cwd": e.repo}, &s); code != 201 || s.ID == "" {
		t.Fatalf("create: %d %+v", code, s)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	evs := p.sseLines(t, ctx, s.ID)
	if code := p.api(t, "POST", "/api/sessions/"+s.ID+"/turns", map[string]string{"input": "hi"}, nil); code != 202 {
		t.Fatalf("turn: %d", code)
	}
	var text strings.Builder
	for ev := range evs {
		if ev[0] == "message.delta" {
			var d struct{ Delta string }
			_ = json.Unmarshal([]byte(ev[1]), &d)
			text.WriteString(d.Delta)
		}
		if ev[0] == "turn.completed" {
			break
		}
	}
	if text.String() != "hello over the web" {
		t.Fatalf("streamed %q", text.String())
	}
	p.stop(t)
	if _, err := os.Stat(p.tokenFile); !os.IsNotExist(err) {
		t.Fatalf("token file after SIGTERM: %v", err)
	}
	if out, _, code := e.run("sessions", "list"); code != 0 || !strings.Contains(out, s.ID[:8]) {
		t.Fatalf("sessions list after serve: %d %s", code, out)
	}
}

// TestServeRefusesRemoteAddr: a non-loopback --addr needs --allow-remote.
func TestServeRefusesRemoteAddr(t *testing.T) {
	e := newEnv(t)
	_, stderr, code := e.run("serve", "--addr", "0.0.0.0:0")
	if code != 2 || !strings.Contains(stderr, "--allow-remote") {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
}
