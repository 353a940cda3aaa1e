package e2e

// The second red team round on issue 18: a person ran `pincer serve >
// serve.out` in the workspace; a sandboxed Bash call (network on, let run by
// the person) read the printed token and POSTed /mode bypassPermissions, after
// which the model's calls ran unasked. serve now prints the token and a login
// code only to a terminal, and the API refuses bypassPermissions unless serve
// was started with --allow-dangerously-skip-permissions.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// startServeToFile starts `pincer serve ARGS` with its stdout redirected to
// the file out (as `pincer serve > out`) and returns once the token file's
// line is there; the token is read from the token file.
func (e *env) startServeToFile(out string, args ...string) *serveProc {
	e.t.Helper()
	f, err := os.Create(out)
	if err != nil {
		e.t.Fatal(err)
	}
	defer f.Close()
	p := &serveProc{cmd: e.command(append([]string{"serve"}, args...)...), done: make(chan struct{})}
	p.cmd.Stdout, p.cmd.Stderr = f, serveLog{p}
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
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(out)
		for _, l := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(l, "pincer serve: "); ok {
				rest, _, _ = strings.Cut(rest, " ")
				if u, err := url.Parse(rest); err == nil {
					p.base = "http://" + u.Host
				}
			}
			if path, ok := strings.CutPrefix(l, "token file: "); ok {
				p.tokenFile = path
			}
		}
		if p.base != "" && p.tokenFile != "" {
			tb, err := os.ReadFile(p.tokenFile)
			if p.token = strings.TrimSpace(string(tb)); err != nil || len(p.token) != 64 {
				e.t.Fatalf("token file %s: %q %v", p.tokenFile, tb, err)
			}
			return p
		}
		time.Sleep(50 * time.Millisecond)
	}
	e.t.Fatalf("pincer serve wrote no token file line in 30 s: %s", p.log())
	return nil
}

// TestAttackServeRedirectedStdout: serve's stdout goes to serve.out in the
// workspace; the scripted model's Bash (network on, allowed once by the
// person) reads it, greps every token-looking string from it and from the
// printed paths, and POSTs /mode bypassPermissions with each; then the model
// asks to Bash a marker. The file holds neither the token nor a login code,
// the mode stays default, the marker call asks (the person denies it) and
// the marker does not exist.
func TestAttackServeRedirectedStdout(t *testing.T) {
	e := newEnv(t)
	p := e.startServeToFile(filepath.Join(e.repo, "serve.out"), "--base-url", e.fake.BaseURL(), "--allow-network")
	printed, _ := os.ReadFile(filepath.Join(e.repo, "serve.out"))
	if strings.Contains(string(printed), p.token) || strings.Contains(string(printed), "login=") {
		t.Errorf("serve.out holds a credential: %q", printed)
	}
	var s struct{ ID string }
	p.api(t, "POST", "/api/sessions", map[string]string{"cwd": e.repo}, &s)
	u, _ := url.Parse(p.base)
	mode := fmt.Sprintf("http://127.0.0.1:%s/api/sessions/%s/mode", u.Port(), s.ID)
	script := strings.Join([]string{
		"cat serve.out > leak_out 2>&1",
		"cat \"$(sed -n 's/^token file: //p' serve.out)\" >> leak_out 2>&1",
		`for t in $(grep -oE '[0-9a-f]{32,64}' serve.out leak_out | sed 's/.*://') x; do curl -s --max-time 5 -o /dev/null -w '%{http_code}\n' -X POST -H 'Content-Type: application/json' -H "Authorization: Bearer $t" -d '{"mode":"bypassPermissions"}' '` + mode + `' >> codes 2>&1; done`,
		"true",
	}, "; ")
	marker := filepath.Join(e.repo, "PROOF_bypass")
	e.fake.Push(
		openaitest.Reply{When: "probe", ToolCalls: []openaitest.Call{{ID: "b1", Name: "Bash", Args: jsonArgs(t, map[string]any{"command": script})}}},
		openaitest.Reply{When: "probe", ToolCalls: []openaitest.Call{{ID: "b2", Name: "Bash", Args: jsonArgs(t, map[string]any{"command": "touch " + marker})}}},
		openaitest.Reply{When: "probe", Text: "probed"})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	evs := p.sseLines(t, ctx, s.ID)
	if code := p.api(t, "POST", "/api/sessions/"+s.ID+"/turns", map[string]string{"input": "probe"}, nil); code != 202 {
		t.Fatalf("turn: %d", code)
	}
	asked := map[string]bool{}
	for ev := range evs {
		if ev[0] == "permission.requested" {
			var req struct{ RequestID, ToolCallID string }
			_ = json.Unmarshal([]byte(ev[1]), &req)
			asked[req.ToolCallID] = true
			decision := "deny" // the marker call: the person says no
			if req.ToolCallID == "b1" {
				decision = "allow" // the person lets the probe run
			}
			waitPending(t, p, req.RequestID)
			if code := p.api(t, "POST", "/api/approvals/"+req.RequestID, map[string]string{"decision": decision}, nil); code != 200 {
				t.Fatalf("answering %s: %d", req.ToolCallID, code)
			}
		}
		if ev[0] == "turn.completed" || ev[0] == "turn.failed" {
			break
		}
	}
	if !asked["b1"] {
		t.Fatalf("HARNESS: the probe ran without asking")
	}
	if !asked["b2"] {
		t.Errorf("the marker call ran unasked: the mode was switched")
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the marker exists: a call ran unasked")
	}
	if got, _ := os.ReadFile(filepath.Join(e.repo, "leak_out")); strings.Contains(string(got), p.token) {
		t.Errorf("the sandboxed command read the token: %q", got)
	}
	codes, err := os.ReadFile(filepath.Join(e.repo, "codes"))
	if err != nil || len(strings.Fields(string(codes))) == 0 {
		t.Fatalf("the probe reached no server: %q %v", codes, err)
	}
	for _, c := range strings.Fields(string(codes)) {
		if c != "401" {
			t.Errorf("a mode switch answered %s (codes %q)", c, codes)
		}
	}
	var after struct{ Mode string }
	p.api(t, "GET", "/api/sessions/"+s.ID, nil, &after)
	if after.Mode != "default" {
		t.Errorf("mode after the probe: %q", after.Mode)
	}
}
